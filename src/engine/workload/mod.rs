//! Workloads: programs the simulated tasks run (stub while being written).
