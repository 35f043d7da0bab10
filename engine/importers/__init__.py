"""Readers that turn other memory formats into MemoryEntry objects; landing them
is the engine's job (through the write gate)."""
