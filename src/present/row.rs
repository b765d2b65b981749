//! The offers table, in words: its columns in order (the header, each
//! row's cells and a details row spanning them are built from one list),
//! and what each row says, for a ranked offer or the visitor's own GPU.

use crate::engine::cost::Costed;
use crate::engine::fabric::Fabric;
use crate::engine::local_run::{LocalRun, ELECTRICITY_USD_PER_KWH};
use crate::engine::serving_plan::SloPlan;
use crate::engine::{Catalog, RankedOffer, Snapshot};
use crate::msg;
use crate::text::{phrases, Arg, Lang, Msg, Phrase};

/// The offers table's columns, left to right.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    /// The expand button and the provider.
    Provider,
    Instance,
    Gpus,
    Vram,
    Regions,
    Price,
    Speed,
    JobTime,
    JobCost,
    PerUnit,
    /// The badges.
    Notes,
}

impl Column {
    pub const ALL: [Column; 11] = [
        Column::Provider,
        Column::Instance,
        Column::Gpus,
        Column::Vram,
        Column::Regions,
        Column::Price,
        Column::Speed,
        Column::JobTime,
        Column::JobCost,
        Column::PerUnit,
        Column::Notes,
    ];

    /// Where the column's cell is among a row's cells.
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn label(self) -> &'static Phrase {
        match self {
            Column::Provider => &phrases::COLUMN_PROVIDER,
            Column::Instance => &phrases::COLUMN_INSTANCE,
            Column::Gpus => &phrases::COLUMN_GPUS,
            Column::Vram => &phrases::COLUMN_VRAM,
            Column::Regions => &phrases::COLUMN_REGIONS,
            Column::Price => &phrases::COLUMN_PRICE,
            Column::Speed => &phrases::COLUMN_SPEED,
            Column::JobTime => &phrases::COLUMN_JOB_TIME,
            Column::JobCost => &phrases::COLUMN_JOB_COST,
            Column::PerUnit => &phrases::COLUMN_PER_UNIT,
            Column::Notes => &phrases::COLUMN_NOTES,
        }
    }

    /// A figure, set right-aligned.
    pub const fn numeric(self) -> bool {
        matches!(self, Column::Vram | Column::Price | Column::JobTime | Column::JobCost | Column::PerUnit)
    }

    /// The class of the column's cells (src/ui/row_cells.rs `empty` gives
    /// the page's rows the same): figures right-aligned, the speed and the
    /// badges styled apart.
    pub const fn cell_class(self) -> Option<&'static str> {
        match self {
            Column::Speed => Some("speed"),
            Column::Notes => Some("badges"),
            column if column.numeric() => Some("num"),
            _ => None,
        }
    }

    /// The id a sortable column's button carries (`sort-price`); `None`
    /// for the columns the table does not sort by.
    pub const fn sort_id(self) -> Option<&'static str> {
        match self {
            Column::Price => Some("price"),
            Column::Speed => Some("speed"),
            Column::JobTime => Some("job"),
            Column::JobCost => Some("cost"),
            Column::PerUnit => Some("unit"),
            _ => None,
        }
    }

    /// The figure a sortable column sorts on, smaller first; speed as time
    /// per unit of work (`Speed::seconds_per_unit`), so faster sorts first.
    pub fn sort_key(self, row: &RankedOffer) -> Option<f64> {
        let cost = row.cost.as_ref();
        match self {
            Column::Price => Some(row.hourly_price()),
            Column::Speed => row.speed.as_ref().map(|s| s.seconds_per_unit()),
            Column::JobTime => cost.map(|c| c.job_hours),
            Column::JobCost => cost.map(|c| c.job_cost),
            Column::PerUnit => cost.map(|c| c.cost_per_unit),
            _ => None,
        }
    }
}

/// Rows per page the reader can choose. The table renders one page at a
/// time, so thousands of offers cost no more to draw than a page. The first
/// is the default, as in the common table widgets (DataTables, Ant Design):
/// the top ten fill about two screens, and each row drawn cost 3 to 4 ms
/// of the first result on this 2-core machine (issue 7: within 500 ms).
pub const PAGE_SIZES: [usize; 4] = [10, 25, 50, 100];

/// How many cells a row has: a details row spans them all.
pub const COLUMN_COUNT: usize = Column::ALL.len();

/// What one row shows, in words; a row's cells update when this changes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RowText {
    pub provider: String,
    pub instance: String,
    /// A cluster's fabric under the instance ("EFA 3,200 Gbit/s"), and
    /// its source's words as the cell's tooltip.
    pub fabric: String,
    pub fabric_title: String,
    pub gpus: String,
    /// Serving: the runtime that serves it there, under the GPUs.
    pub runtime: String,
    pub vram: String,
    pub regions: String,
    pub regions_title: String,
    pub price: String,
    /// A cluster's price per node ("32 × $98.32"), as the price's tooltip.
    pub price_title: String,
    pub spot: bool,
    pub speed: String,
    /// How sure the speed is (its figures' error bands), as its tooltip.
    pub speed_title: String,
    /// Under the speed: what bounds it, or a plan's replicas.
    pub bound: Option<String>,
    pub job: String,
    pub billed: String,
    pub total: String,
    pub per_unit: String,
    /// What `per_unit` is per ("per 1M output tokens"), under it.
    pub unit: String,
    pub pareto: bool,
    pub badges: Vec<BadgeText>,
}

/// A plan's latencies at its percentile, for the speed cell.
pub fn slo_headline(plan: &SloPlan) -> Msg {
    msg!(
        phrases::SLO_HEADLINE,
        ttft = Arg::Num(plan.ttft_s.at_percentile, 2),
        itl = Arg::Num(plan.itl_s.at_percentile * 1e3, 0),
        pct = plan.percentile
    )
}

/// Its replicas, under the latencies.
pub fn slo_shape(plan: &SloPlan) -> Msg {
    msg!(phrases::SLO_SHAPE, replicas = plan.replicas, gpus = plan.gpus_per_replica)
}

/// A badge's words and what it means, for its tooltip (empty where the
/// words say it all).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BadgeText {
    pub label: String,
    pub title: String,
}

/// One cell's words, then a note in a span (its class and words), and a
/// tooltip.
#[derive(Debug, PartialEq)]
pub struct Cell<'a> {
    pub words: &'a str,
    pub note: Option<(&'static str, &'a str)>,
    pub title: Option<&'a str>,
}

impl RowText {
    /// A ranked offer's row.
    pub fn of(ranked: &RankedOffer, snapshot: &Snapshot, catalog: &Catalog, lang: Lang) -> RowText {
        let offer = &snapshot.offers[ranked.offer];
        let gpu_name = catalog.gpu_name(&offer.gpu).to_string();
        let provider = snapshot.provider(&offer.provider).map_or(offer.provider.clone(), |p| p.name.clone());
        let cost = ranked.cost.as_ref();
        let fabric = ranked.fabric.and_then(|i| snapshot.fabrics.get(i));
        let (per_unit, unit) = per_unit_text(cost, lang);
        RowText {
            // A reseller's offer names the cloud that runs it.
            provider: match &offer.underlying_cloud {
                Some(cloud) => format!("{provider} · {cloud}"),
                None => provider,
            },
            instance: if ranked.nodes > 1 {
                msg!(phrases::CLUSTER_NODES, nodes = ranked.nodes, instance = &offer.instance).render(lang)
            } else {
                offer.instance.clone()
            },
            fabric: fabric.map_or(String::new(), |f| fabric_label(f, ranked.internode_gbps).render(lang)),
            fabric_title: fabric.map_or(String::new(), fabric_title),
            gpus: msg!(phrases::GPU_COUNT, count = ranked.total_gpus, gpu = gpu_name).render(lang),
            runtime: ranked.runtime.map_or(String::new(), |r| lang.t(r.label()).to_string()),
            vram: format!("{} GiB", lang.number(offer.total_vram_gb() * f64::from(ranked.nodes), 0)),
            regions: offer.regions_label(lang),
            regions_title: offer.regions.join(", "),
            price: lang.usd(ranked.hourly_price()),
            price_title: if ranked.nodes > 1 {
                msg!(phrases::CLUSTER_PRICE, nodes = ranked.nodes, price = Arg::Usd(ranked.price_per_hour)).render(lang)
            } else {
                String::new()
            },
            spot: ranked.spot,
            speed: match &ranked.slo {
                // Serving to latency targets: the latencies the plan gets.
                Some(plan) => slo_headline(plan).render(lang),
                None => ranked.speed.as_ref().map_or(String::from("–"), |s| s.headline().render(lang)),
            },
            speed_title: match &ranked.slo {
                Some(plan) => plan.bands().render(lang),
                None => ranked.speed.as_ref().map_or(String::new(), |s| accuracy_title(s, lang)),
            },
            bound: match &ranked.slo {
                Some(plan) => Some(slo_shape(plan).render(lang)),
                None => ranked.speed.as_ref().map(|s| lang.t(s.bound.label()).to_string()),
            },
            job: cost.map_or(String::from("–"), |c| lang.hours(c.job_hours)),
            billed: cost
                .map_or(String::new(), |c| msg!(phrases::BILLED, time = Arg::Hours(c.billed_hours)).render(lang)),
            total: cost.map_or(String::from("–"), |c| {
                // A total with assumed rules is an upper bound (issue 27).
                let bound = if c.assumed.any() { "≤" } else { "" };
                format!("{bound}{}", lang.usd(c.job_cost))
            }),
            per_unit,
            unit,
            pareto: ranked.pareto,
            badges: ranked
                .badges
                .iter()
                .map(|b| BadgeText { label: lang.t(b.label()).to_string(), title: lang.t(b.explanation()).to_string() })
                .collect(),
        }
    }

    /// The visitor's own GPU as a row: electricity for a price, and whether
    /// the workload fits, like any offer.
    pub fn of_local(run: &LocalRun, catalog: &Catalog, lang: Lang) -> RowText {
        let gpu = catalog.gpu(&run.gpu).ok();
        let name = gpu.map_or(run.gpu.clone(), |g| g.name.clone());
        let dash = || String::from("–");
        let cost = run.cost.as_ref();
        let (per_unit, unit) = per_unit_text(cost, lang);
        let fit = if run.cannot_run.is_some() {
            lang.t(&phrases::LOCAL_CANNOT_RUN).to_string()
        } else if run.fits {
            lang.t(&phrases::LOCAL_FITS).to_string()
        } else {
            let short = msg!(phrases::FIT_NEEDS, need = Arg::Bytes(run.need_bytes), has = Arg::Bytes(run.usable_bytes));
            format!("{}: {}", lang.t(&phrases::LOCAL_DOES_NOT_FIT), short.render(lang))
        };
        RowText {
            provider: lang.t(&phrases::YOUR_GPU).to_string(),
            gpus: msg!(phrases::GPU_COUNT, count = 1, gpu = name.clone()).render(lang),
            runtime: run.runtime.map_or(String::new(), |r| lang.t(r.label()).to_string()),
            instance: name,
            vram: gpu.map_or_else(dash, |g| format!("{} GiB", lang.number(g.vram_gb, 0))),
            regions: dash(),
            regions_title: electricity(run, lang),
            price: lang.usd(run.price_per_hour),
            speed: run.speed.as_ref().map_or_else(dash, |s| s.headline().render(lang)),
            speed_title: run.speed.as_ref().map_or(String::new(), |s| accuracy_title(s, lang)),
            bound: run.speed.as_ref().map(|s| lang.t(s.bound.label()).to_string()),
            job: cost.map_or_else(dash, |c| lang.hours(c.job_hours)),
            total: cost.map_or_else(dash, |c| lang.usd(c.job_cost)),
            per_unit,
            unit,
            badges: vec![BadgeText { label: fit, title: String::new() }],
            ..RowText::default()
        }
    }

    /// The cells between the provider's and the badges', each with its
    /// column.
    pub fn cells(&self, lang: Lang) -> [(Column, Cell<'_>); 9] {
        let plain = |words| Cell { words, note: None, title: None };
        [
            // A cluster's fabric under its nodes.
            (
                Column::Instance,
                Cell {
                    words: &self.instance,
                    note: (!self.fabric.is_empty()).then_some(("fabric", self.fabric.as_str())),
                    title: (!self.fabric_title.is_empty()).then_some(self.fabric_title.as_str()),
                },
            ),
            // The runtime that serves it there, under the GPUs.
            (
                Column::Gpus,
                Cell {
                    words: &self.gpus,
                    note: (!self.runtime.is_empty()).then_some(("runtime", self.runtime.as_str())),
                    title: None,
                },
            ),
            (Column::Vram, plain(&self.vram)),
            (Column::Regions, Cell { words: &self.regions, note: None, title: Some(&self.regions_title) }),
            // A spot tag only on spot rows; the bound and the billing always.
            (
                Column::Price,
                Cell {
                    words: &self.price,
                    note: self.spot.then(|| ("spot", lang.t(&phrases::SPOT_TAG))),
                    title: (!self.price_title.is_empty()).then_some(self.price_title.as_str()),
                },
            ),
            (
                Column::Speed,
                Cell {
                    words: &self.speed,
                    note: Some(("bound", self.bound.as_deref().unwrap_or_default())),
                    title: (!self.speed_title.is_empty()).then_some(self.speed_title.as_str()),
                },
            ),
            (Column::JobTime, Cell { words: &self.job, note: Some(("bound", &self.billed)), title: None }),
            (Column::JobCost, plain(&self.total)),
            // The cost, and under it what it is per ("per 1M output tokens"),
            // so the column is as wide as the money, not the unit's words.
            (
                Column::PerUnit,
                Cell {
                    words: &self.per_unit,
                    note: (!self.unit.is_empty()).then_some(("bound", self.unit.as_str())),
                    title: None,
                },
            ),
        ]
    }
}

/// A speed's error bands, one per line, as the speed cell's tooltip.
pub fn accuracy_title(speed: &crate::engine::speed::Speed, lang: Lang) -> String {
    speed.accuracy().iter().map(|line| line.render(lang)).collect::<Vec<_>>().join("\n")
}

/// A cluster's fabric as a row shows it: "EFA 3,200 Gbit/s", or
/// "InfiniBand, speed not stated".
pub fn fabric_label(fabric: &Fabric, gbps: Option<f64>) -> Msg {
    match gbps {
        Some(gbps) => msg!(phrases::FABRIC_SPEED, fabric = fabric.kind.label(), gbps = Arg::Num(gbps, 0)),
        None => msg!(phrases::FABRIC_SPEED_UNSTATED, fabric = fabric.kind.label()),
    }
}

/// The source's own words about a cluster: its fabric and how clusters are
/// formed (the data's English).
fn fabric_title(fabric: &Fabric) -> String {
    [fabric.fabric.as_deref(), fabric.how.as_deref(), fabric.price_note.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A row's cost per unit ("$0.547", or "–" without a cost) and what it is
/// per ("per 1M output tokens"), written under it.
fn per_unit_text(cost: Option<&Costed>, lang: Lang) -> (String, String) {
    cost.map_or_else(
        || (String::from("–"), String::new()),
        |c| (lang.usd(c.cost_per_unit), msg!(phrases::PER_UNIT, unit = c.unit.label()).render(lang)),
    )
}

/// The electricity a run on the visitor's GPU counts, in words.
pub fn electricity(run: &LocalRun, lang: Lang) -> String {
    match run.watts {
        Some(watts) => msg!(
            phrases::ELECTRICITY,
            price = Arg::Usd(run.price_per_hour),
            watts = Arg::Num(watts, 0),
            rate = Arg::Usd(ELECTRICITY_USD_PER_KWH)
        )
        .render(lang),
        None => lang.t(&phrases::ELECTRICITY_UNKNOWN).to_string(),
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
