//! Reports: human table, JSON and JUnit renderings of verdicts.
