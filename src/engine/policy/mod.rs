//! Scheduling policies behind one trait (stub while being written).
