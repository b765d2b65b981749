//! What the page shows that is computed, as pure functions tested with
//! `cargo test` (issue 22): `ui/` wires these words and figures to the DOM
//! and the JavaScript boundaries, and decides nothing itself.
//!
//! - [`chart`]: the cost-vs-speed chart's points, frontier and axes.
//! - [`curve`]: a planned row's throughput–interactivity curve.
//! - [`excluded`]: the offers left out, grouped by reason.
//! - [`first_result`]: a link's first result on a phone, as HTML written
//!   before the page is built.
//! - [`form`]: the workload form's choices.
//! - [`hosted_api`]: the cheapest hosted API for the model, against renting.
//! - [`import_answer`]: what the page sets and says after a model import,
//!   computed in the import's Web Worker.
//! - [`memory`]: the memory line and the bar under it.
//! - [`model_facts`]: a model's facts where it is picked, and what an
//!   import read.
//! - [`row`]: the offers table's columns, and each row's words (an offer,
//!   or the visitor's own GPU) in named cells shared by the header and the
//!   rows.
//! - [`your_gpu`]: what the probe found, the measurement, the picker and the
//!   verdict of the visitor's own GPU.
//! - [`support`]: beside the weights and runtime fields, when nothing in
//!   the offers runs the workload as asked, and what would.
//! - [`selection`]: the offer a link selects: which row it is, and why the
//!   ranking does not list it when it does not.

pub mod chart;
pub mod curve;
pub mod excluded;
pub mod first_result;
pub mod form;
pub mod hosted_api;
pub mod import_answer;
pub mod memory;
pub mod model_facts;
pub mod row;
pub mod selection;
pub mod support;
pub mod your_gpu;
