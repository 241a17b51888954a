"""Game records (``docs/records.md``): read, check by replaying through the engine, write.

There is one implementation of the rules: the reader replays every move through
``bones.engine`` and reports the engine's own refusal, prefixed with the hand and move.
"""

from bones.record.model import HandRecord, Record
from bones.record.reader import RecordError, RecordFormatError, load, parse, read_file, replay
from bones.record.writer import dump, record_of, to_json

__all__ = [
    "HandRecord",
    "Record",
    "RecordError",
    "RecordFormatError",
    "dump",
    "load",
    "parse",
    "read_file",
    "record_of",
    "replay",
    "to_json",
]
