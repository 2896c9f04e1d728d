//! The integration tests of `dynotable-server`, one binary: the real `dynotable-local` process
//! on a loopback port, driven over HTTP (the endpoint, its limits and caller checks, the
//! multi-attribute index keys, the simulations). One binary is linked once and runs every area's
//! tests side by side.

mod endpoint;
mod http;
mod limits;
mod local;
mod multi_attribute_keys;
mod simulations;
