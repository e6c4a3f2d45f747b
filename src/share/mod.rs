//! Boundary formats: the URL codec, trace and CSV exports, rt-app import (stub being written).
