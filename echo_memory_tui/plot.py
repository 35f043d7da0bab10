"""A small braille plotter (2x4 dots per cell) for the decay curve, so the app
needs no plotting library."""

from __future__ import annotations

from typing import Optional, Sequence

from rich.text import Text

_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # [row][col]


class Canvas:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells = [[0] * width for _ in range(height)]
        self.layer = [[0] * width for _ in range(height)]  # which series owns the cell (last writer)

    @property
    def dots_x(self) -> int:
        return self.width * 2

    @property
    def dots_y(self) -> int:
        return self.height * 4

    def set(self, x: int, y: int, series: int = 1) -> None:
        if 0 <= x < self.dots_x and 0 <= y < self.dots_y:
            cx, cy = x // 2, y // 4
            self.cells[cy][cx] |= _BITS[y % 4][x % 2]
            if series >= self.layer[cy][cx]:
                self.layer[cy][cx] = series

    def line(self, x0: int, y0: int, x1: int, y1: int, series: int = 1) -> None:
        steps = max(abs(x1 - x0), abs(y1 - y0), 1)
        for i in range(steps + 1):
            self.set(round(x0 + (x1 - x0) * i / steps), round(y0 + (y1 - y0) * i / steps), series)

    def row_text(self, row: int, styles: dict[int, str]) -> Text:
        out = Text()
        for cx in range(self.width):
            bits = self.cells[row][cx]
            out.append(chr(0x2800 + bits) if bits else " ", style=styles.get(self.layer[row][cx], ""))
        return out


def decay_plot(
    points: Sequence[tuple[float, float]],
    threshold: float,
    width: int = 48,
    height: int = 6,
    crossing: Optional[float] = None,
    y_max: Optional[float] = None,
) -> Text:
    """Effective importance over the next days (points: (day, value)), with the
    archive threshold dashed and the crossing day marked."""
    width = max(16, width)
    label_w = 5
    plot_w = width - label_w - 1
    canvas = Canvas(plot_w, height)
    horizon = max(points[-1][0] if points else 1.0, 1.0)
    top = y_max if y_max else max([p[1] for p in points] + [threshold * 1.2, 0.05])

    def to_xy(day: float, value: float) -> tuple[int, int]:
        x = round(day / horizon * (canvas.dots_x - 1))
        y = round((1 - min(value, top) / top) * (canvas.dots_y - 1))
        return x, y

    ty = to_xy(0, threshold)[1]
    for x in range(0, canvas.dots_x, 3):
        canvas.set(x, ty, series=1)
    previous = None
    for day, value in points:
        xy = to_xy(day, value)
        if previous is not None:
            canvas.line(*previous, *xy, series=2)
        else:
            canvas.set(*xy, series=2)
        previous = xy
    styles = {1: "red", 2: "bold cyan"}
    out = Text(no_wrap=True)
    threshold_row = ty // 4
    for row in range(height):
        if row == 0:
            label = f"{top:.2f}"
        elif row == threshold_row:
            label = f"{threshold:.2f}"
        elif row == height - 1:
            label = "0"
        else:
            label = ""
        out.append(label.rjust(label_w), style="red" if row == threshold_row and row else "dim")
        out.append("┤" if label else "│", style="dim")
        out.append_text(canvas.row_text(row, styles))
        out.append("\n")
    axis = [" "] * plot_w
    if crossing is not None and 0 <= crossing <= horizon:
        cx = min(plot_w - 1, round(crossing / horizon * (plot_w - 1)))
        axis[cx] = "▲"
    out.append(" " * label_w + "└", style="dim")
    out.append("".join(axis), style="bold red")
    out.append("\n")
    left, right = "now", f"+{horizon:.0f} d"
    middle = f"+{horizon / 2:.0f} d"
    span = plot_w - len(left) - len(right)
    out.append(" " * (label_w + 1) + left + middle.center(max(0, span)) + right, style="dim")
    return out
