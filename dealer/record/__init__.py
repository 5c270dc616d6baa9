"""The record of a round: the log, the sealed rule, verification, review and replays."""
