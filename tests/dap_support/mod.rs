//! A DAP client and the protocol's schema for the `hc11lab dap` tests.
#![allow(dead_code)] // each test file uses part of the client
pub mod client;
pub mod schema;
