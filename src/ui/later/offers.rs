//! What the parts under the offers table read.

use crate::engine::{Catalog, Snapshot};
use crate::text::Lang;
use crate::ui::ranked::Ranked;
use leptos::prelude::*;
use std::sync::Arc;

/// What the parts under the table read: the ranking and its snapshot.
pub struct Offers {
    pub report: Signal<Ranked>,
    pub snapshot: Arc<Snapshot>,
    pub catalog: &'static Catalog,
    /// Embedded: the top rows only, without exports or the offers left out.
    pub compact: bool,
    pub lang: Lang,
}
