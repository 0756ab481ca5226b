//! Reactive programs and temporal tuples: syntax, the hyena0 reader, refutation and testing.

mod bounds;
mod front;
mod observation_points;
mod prove;
mod refute;
mod report;
mod silent_iterations;
