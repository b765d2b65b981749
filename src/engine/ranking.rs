//! Ranking: which offers hold the workload, what the whole job costs on
//! each (on-demand and, where safe, spot), in the order the objective asks,
//! with the cost-vs-speed Pareto frontier, badges, the offers left out and
//! why, and advice drawn from the case.

mod advice;
mod cluster;
mod report;
mod shape;

pub use report::{weighed_as_job, Badge, Exclusion, RankedOffer, ReliableFirst, Report};

use super::catalog::Family;
use super::cost::{self, cost, rented_startup_s, spot_allowed, Costed, Fallback, Rental, Rules};
use super::fabric::{FabricIndex, Placement};
use super::hardware::{compute_precision, ComputePrecision};
use super::memory::{estimate, fit, Fit};
use super::price_check::{Capacity, PriceCheck};
use super::serving_plan::{self, Planned, SloPlan, Targets};
use super::setup::{on_gpu, OnGpu, Setup};
use super::{
    Catalog, Error, Gpu, Objective, Offer, PriceFilter, PriceKind, PriceTrust, Provider, Snapshot, Task, Workload,
};
use crate::msg;
use crate::text::{phrases, Arg, Msg};
use crate::units::SECONDS_PER_HOUR;
use cluster::OnCluster;
use shape::{shape_index, OnThisGpu, Shape, ShapeKey};
use std::cmp::Ordering;

use super::fast_map::FastMap;

/// Why `offer` is outside the user's filters, if it is.
fn filtered_out(workload: &Workload, offer: &Offer, gpu: Option<&Gpu>, provider: Option<&Provider>) -> Option<Msg> {
    if !workload.prices.admits(provider.and_then(|p| p.price_kind)) {
        return Some(match workload.prices {
            PriceFilter::Verified => msg!(phrases::LEFT_OUT_UNVERIFIED_KIND),
            PriceFilter::Payable | PriceFilter::All => msg!(phrases::LEFT_OUT_AUCTION),
        });
    }
    if !workload.providers.is_empty() && !workload.providers.split(',').any(|p| p == offer.provider) {
        return Some(msg!(phrases::FILTER_PROVIDER, providers = workload.providers.replace(',', ", ")));
    }
    if !workload.region.is_empty() {
        let wanted = workload.region.to_ascii_lowercase();
        if !offer.regions.iter().any(|r| r.to_ascii_lowercase().contains(&wanted)) {
            return Some(msg!(phrases::FILTER_REGION, region = &workload.region));
        }
    }
    if let Some(max) = workload.max_gpus {
        if offer.gpu_count > max {
            return Some(msg!(phrases::FILTER_GPU_COUNT, count = offer.gpu_count, max = max));
        }
    }
    if !workload.vendor.is_empty() && gpu.is_some_and(|g| !g.vendor.to_ascii_lowercase().contains(&workload.vendor)) {
        return Some(msg!(phrases::FILTER_VENDOR, vendor = &workload.vendor));
    }
    if !workload.gpu_filter.is_empty() {
        let (id, name) = (offer.gpu.to_ascii_lowercase(), gpu.map(|g| g.name.to_ascii_lowercase()).unwrap_or_default());
        if !workload.gpu_filter.split(',').any(|wanted| id.contains(wanted) || name.contains(wanted)) {
            return Some(msg!(phrases::FILTER_GPU, gpus = workload.gpu_filter.replace(',', ", ")));
        }
    }
    None
}

/// The badges of a costed offer.
fn badges(gpu: &Gpu, offer: &Offer, shape: &Shape, costed: Option<&Costed>, spot: bool) -> Vec<Badge> {
    let mut badges = Vec::new();
    if gpu.memory_type.as_deref().is_some_and(|t| t.starts_with("HBM")) {
        badges.push(Badge::Hbm);
    }
    if compute_precision(super::Precision::Fp8, gpu) == ComputePrecision::Fp8 {
        badges.push(Badge::Fp8);
    }
    if offer.gpu_count > 1 {
        badges.push(Badge::gpu_link(gpu).unwrap_or(Badge::PcieOnly));
    }
    if spot {
        badges.push(Badge::SpotSafe);
    }
    if costed.is_some_and(|c| c.assumed.any()) {
        badges.push(Badge::RulesAssumed);
    }
    if shape.single_gpu_fits {
        badges.push(Badge::SingleGpuFits);
    }
    badges
}

/// What the ranking reads from a snapshot whatever the workload: each
/// provider's billing rules, with what it does not publish assumed (issue
/// 27), and which prices may not hold. Built once per snapshot, so an edit
/// of the workload does not redo it (the price check sorts every offer:
/// about 2 ms for the 2,465 bundled offers, more than half a ranking).
pub struct Terms {
    /// Per provider, in `Snapshot::providers`' order.
    rules: Vec<Rules>,
    /// For an offer whose provider the snapshot lacks.
    no_rules: Rules,
    price_check: PriceCheck,
    /// The serving planner that meets latency targets, once there is one
    /// (`serving_plan::plan`): the page fetches it with its second module
    /// when a link sets targets, so that the first result of every other
    /// link does not carry it (issue 38). Without it, targets are not
    /// planned.
    planner: std::sync::OnceLock<Planner>,
}

/// How an offer's set-up to latency targets is planned (`serving_plan::plan`).
pub type Planner =
    fn(&Workload, &super::Model, &super::catalog::Shape, &Gpu, u32, &Targets, &mut Planned) -> Result<SloPlan, Msg>;

impl Terms {
    pub fn of(snapshot: &Snapshot) -> Terms {
        let fallback = Fallback::of(&snapshot.providers);
        Terms {
            rules: snapshot.providers.iter().map(|p| Rules::of(Some(p), &fallback)).collect(),
            no_rules: Rules::of(None, &fallback),
            price_check: PriceCheck::new(snapshot),
            planner: std::sync::OnceLock::new(),
        }
    }

    /// Plans latency targets with `planner` from now on (the first one
    /// given stays).
    pub fn plan_with(&self, planner: Planner) {
        let _ = self.planner.set(planner);
    }

    /// Whether latency targets can be planned.
    pub fn plans(&self) -> bool {
        self.planner.get().is_some()
    }
}

/// Sizes `workload` and ranks every offer of `snapshot` for it, planning
/// latency targets where it sets them.
pub fn rank(workload: &Workload, catalog: &Catalog, snapshot: &Snapshot) -> Result<Report, Error> {
    let terms = Terms::of(snapshot);
    terms.plan_with(serving_plan::plan);
    rank_with(workload, catalog, snapshot, &terms)
}

/// `rank`, with the snapshot's `Terms` built beforehand (the page builds
/// them once per snapshot and ranks on every edit).
///
/// Each offer becomes rows in four steps ([`Job::rows_of`]): admitted
/// (the user's filters, a GPU the catalog knows), set up (the software
/// that runs the job on its GPU), placed (its machine as listed, or the
/// fewest nodes of a cluster that hold the job in time) and priced (the
/// billed cost on demand and on spot). Each step that fails says why, and
/// the offer is listed as left out for that reason.
pub fn rank_with(workload: &Workload, catalog: &Catalog, snapshot: &Snapshot, terms: &Terms) -> Result<Report, Error> {
    let model = workload.resolve_model(catalog)?;
    let mut ranking = Ranking::start(workload, model.as_ref(), catalog, snapshot, terms)?;
    ranking.advance(usize::MAX);
    Ok(ranking.finish())
}

/// A ranking under way: its offers become rows, or are left out, a step
/// of offers at a time ([`Ranking::advance`]), so that a page can plan
/// latency targets over several turns of its event loop and stay
/// responsive (issue 39); [`rank_with`] takes every offer in one step.
/// The report is the same however the offers are stepped.
pub struct Ranking<'a> {
    job: Job<'a>,
    memory: super::memory::MemoryBreakdown,
    /// Offers repeat GPU shapes (the same 8× H100 at many clouds): what
    /// offers of one GPU share is worked out once per catalog GPU.
    of_gpus: Vec<OfGpu>,
    shortfalls: Shortfalls,
    /// With latency targets and `quant=allow`, the workload in the other
    /// formats it may take, each with its own per-GPU caches
    /// (`serving_plan::formats`): an offer's rows are those of the format
    /// that serves the stated traffic cheapest.
    alternatives: Vec<(Job<'a>, Vec<OfGpu>)>,
    results: Vec<RankedOffer>,
    excluded: Vec<Exclusion>,
    /// The first offer not yet ranked.
    next: usize,
}

impl<'a> Ranking<'a> {
    /// Sizes `workload` on `model` (its `resolve_model`) and readies the
    /// ranking of `snapshot`'s offers, or says why the job cannot be sized.
    pub fn start(
        workload: &'a Workload,
        model: &'a super::Model,
        catalog: &'a Catalog,
        snapshot: &'a Snapshot,
        terms: &'a Terms,
    ) -> Result<Ranking<'a>, Error> {
        let memory = estimate(workload, model, workload.planned_gpus())?;
        let per_gpu = || catalog.gpus.iter().map(|_| OfGpu::default()).collect::<Vec<_>>();
        let alternatives = serving_plan::formats::alternatives(workload)
            .into_iter()
            .map(|other| (Job::new(other, model, catalog, snapshot, terms), per_gpu()))
            .collect();
        Ok(Ranking {
            job: Job::new(workload.clone(), model, catalog, snapshot, terms),
            memory,
            of_gpus: per_gpu(),
            shortfalls: Shortfalls::default(),
            alternatives,
            results: Vec::new(),
            excluded: Vec::new(),
            next: 0,
        })
    }

    /// Ranks up to `offers` more offers; true once every offer is ranked.
    pub fn advance(&mut self, offers: usize) -> bool {
        let all = &self.job.snapshot.offers;
        let end = self.next.saturating_add(offers).min(all.len());
        for (index, offer) in all.iter().enumerate().take(end).skip(self.next) {
            let mut rows = self.job.rows_of(index, offer, &mut self.of_gpus, &mut self.shortfalls);
            // A smaller format is taken where the precise one cannot serve
            // the traffic on the offer, or needs more of its instances:
            // on as many, the two cost the same but for the weights'
            // storage, and the more precise answers better. One instance
            // is the fewest.
            for (job, of_gpus) in &mut self.alternatives {
                let needed = rows.as_ref().map_or(u32::MAX, |rows| instances(rows));
                if needed <= 1 {
                    break;
                }
                // What an offer falls short of in another format does not
                // change what the job as a whole needs: the advice reads the
                // workload's own formats.
                let Ok(other) = job.rows_of(index, offer, of_gpus, &mut Shortfalls::default()) else { continue };
                if instances(&other) < needed {
                    rows = Ok(other);
                }
            }
            match rows {
                Ok(rows) => self.results.extend(rows),
                Err(reason) => self.excluded.push(Exclusion { offer: index, reason }),
            }
        }
        self.next = end;
        self.next == all.len()
    }

    /// The formats each offer is planned in: 1, or more with
    /// `quant=allow` (`serving_plan::formats`).
    pub fn formats(&self) -> usize {
        1 + self.alternatives.len()
    }

    /// The offers ranked so far, and how many there are.
    pub fn progress(&self) -> (usize, usize) {
        (self.next, self.job.snapshot.offers.len())
    }

    /// The report once every offer is ranked (`advance` returned true):
    /// the rows sorted by the workload's objective, the advice.
    pub fn finish(self) -> Report {
        let Ranking { job, memory, of_gpus, shortfalls, mut results, excluded, next: _, alternatives: _ } = self;
        let (workload, catalog, snapshot) = (&job.workload, job.catalog, job.snapshot);
        let objective = workload.objective();
        sort(&mut results, objective, workload.task, snapshot, catalog);
        let reliable_first = reliable_first(&mut results, workload.price_trust);
        mark_pareto(&mut results, workload.task);
        let no_single_node = if results.is_empty() { job.why_nothing_runs(&shortfalls) } else { None };
        let mut report = Report {
            memory,
            task: workload.task,
            objective,
            results,
            excluded,
            no_single_node,
            reliable_first,
            advice: Vec::new(),
        };
        report.advice =
            advice::advise(workload, &report, catalog, snapshot, job.spot_ok.err(), shortfalls.spot_left_out_nodes);
        if let Some(said) =
            job.targets.filter(|_| report.results.is_empty()).and_then(|t| why_no_plan(&of_gpus, catalog, &t))
        {
            report.advice.insert(0, said);
        }
        // Said first: the deadline the rows were sized to where none was given,
        // and why the top rows may not be the objective's own.
        if cluster::sized_to_unstated_deadline(workload) {
            let days = Arg::Num(cluster::UNSTATED_DEADLINE_DAYS, 0);
            report.advice.insert(0, msg!(phrases::ADVICE_UNSTATED_DEADLINE, days = days));
        }
        if let Some(first) = reliable_first.filter(|r| r.moved > 0) {
            let phrase = if first.always { &phrases::ADVICE_RELIABLE_ALWAYS } else { &phrases::ADVICE_RELIABLE_LONG };
            report.advice.insert(0, msg!(*phrase, moved = first.moved));
        }
        report
    }
}

/// The fewest instances of an offer its planned `rows` need to meet the
/// latency targets (`u32::MAX` without a plan).
fn instances(rows: &[RankedOffer]) -> u32 {
    rows.iter().filter_map(|r| r.slo.as_ref().map(|p| p.instances)).min().unwrap_or(u32::MAX)
}

/// What ranking one workload reads for every offer: the model, the job's
/// terms, and lookups by id built once (offers name GPUs and providers
/// thousands of times; one map type for both keeps the page's WebAssembly
/// to one copy of the hash table's code).
struct Job<'a> {
    /// The workload, or one of its `serving_plan::formats::alternatives`.
    workload: Workload,
    model: &'a super::Model,
    catalog: &'a Catalog,
    snapshot: &'a Snapshot,
    terms: &'a Terms,
    spot_ok: Result<(), &'static crate::text::Phrase>,
    /// Serving to latency targets: what every row must meet (`serving_plan`).
    targets: Option<Targets>,
    startup_s: f64,
    deadline: Option<f64>,
    fabrics: FabricIndex<'a>,
    gpu_index: FastMap<&'a str, usize>,
    provider_index: FastMap<&'a str, usize>,
}

/// What the offers of one catalog GPU share: whether one GPU holds the
/// job, the software set-up, and its shapes by GPU count, nodes and fabric
/// (a handful each), sized and timed once.
#[derive(Default)]
struct OfGpu {
    single_fits: Option<bool>,
    set_up: Option<Result<OnGpu, Msg>>,
    shapes: Vec<(ShapeKey, Shape)>,
    /// With latency targets, each replica grouping planned (by GPUs per replica).
    plans: Planned,
}

/// What offers left out say about the job as a whole, for the advice and
/// the note when nothing runs it: the fewest nodes on which spot was left
/// out as too often interrupted, and the clusters' limits.
#[derive(Default)]
struct Shortfalls {
    spot_left_out_nodes: Option<u32>,
    clusters: cluster::Limits,
}

impl<'a> Job<'a> {
    fn new(
        workload: Workload,
        model: &'a super::Model,
        catalog: &'a Catalog,
        snapshot: &'a Snapshot,
        terms: &'a Terms,
    ) -> Job<'a> {
        Job {
            spot_ok: spot_allowed(&workload),
            targets: Targets::of(&workload),
            startup_s: rented_startup_s(&workload, model),
            deadline: cluster::deadline_hours(&workload),
            workload,
            model,
            catalog,
            snapshot,
            terms,
            fabrics: FabricIndex::new(&snapshot.fabrics),
            gpu_index: catalog.gpus.iter().enumerate().map(|(i, g)| (g.id.as_str(), i)).collect(),
            provider_index: snapshot.providers.iter().enumerate().map(|(i, p)| (p.id.as_str(), i)).collect(),
        }
    }

    /// `offer`'s rows, or why it has none: admitted, set up, placed,
    /// planned to the latency targets where there are some, priced.
    fn rows_of(
        &self,
        index: usize,
        offer: &Offer,
        of_gpus: &mut [OfGpu],
        shortfalls: &mut Shortfalls,
    ) -> Result<Vec<RankedOffer>, Msg> {
        let (g, gpu, provider) = self.admit(offer)?;
        let OfGpu { single_fits, set_up, shapes, plans } = &mut of_gpus[g];
        let (setup, runs) = self.set_up(set_up, gpu)?;
        let single_gpu_fits = *single_fits.get_or_insert_with(|| fit(runs, self.model, gpu, 1).is_ok_and(|f| f.fits));
        let here = OnThisGpu { runs, model: self.model, gpu, setup, single_gpu_fits, startup_s: self.startup_s };
        let (at, on_cluster) = self.place(index, offer, provider, &here, shapes, shortfalls)?;
        let shape = &shapes[at].1;
        match &shape.fit {
            Ok(f) if f.fits => {
                let planned = self.plan(offer, &here, plans)?;
                self.price(index, offer, provider, &here, shape, f, &on_cluster, planned, shortfalls)
            }
            Ok(f) => f.reason.clone().map_or(Ok(Vec::new()), Err),
            Err(reason) => Err(reason.clone()),
        }
    }

    /// With latency targets, the set-up on `offer`'s GPUs that meets them
    /// at the stated traffic, or why none does (`serving_plan::plan`); each
    /// replica grouping is planned once per GPU. `None` without targets.
    fn plan(&self, offer: &Offer, here: &OnThisGpu<'_>, plans: &mut Planned) -> Result<Option<SloPlan>, Msg> {
        let (Some(targets), Ok(Family::Serving(shape)), Some(planner)) =
            (&self.targets, self.model.family(Task::Infer), self.terms.planner.get().copied())
        else {
            return Ok(None);
        };
        planner(here.runs, self.model, shape, here.gpu, offer.gpu_count, targets, plans).map(Some)
    }

    /// `offer`'s GPU (with its index in the catalog) and provider, or why
    /// it is left out: a provider that no longer sells it publicly, outside
    /// the user's filters, or a GPU the catalog does not know.
    fn admit(&self, offer: &Offer) -> Result<(usize, &'a Gpu, Option<&'a Provider>), Msg> {
        let found = self
            .gpu_index
            .get(offer.gpu.as_str())
            .map(|&g| (g, &self.catalog.gpus[g]))
            .ok_or_else(|| Error::UnknownGpu(offer.gpu.clone()));
        let provider = self.provider_index.get(offer.provider.as_str()).map(|&i| &self.snapshot.providers[i]);
        if let Some((provider, closed)) = provider.and_then(|p| Some((p, p.closed.as_ref()?))) {
            return Err(msg!(
                phrases::LEFT_OUT_CLOSED,
                provider = &provider.name,
                date = &closed.on,
                source = &closed.source
            ));
        }
        if let Some(reason) = filtered_out(&self.workload, offer, found.as_ref().ok().map(|&(_, gpu)| gpu), provider) {
            return Err(reason);
        }
        let (g, gpu) = found.map_err(|e| e.message())?;
        Ok((g, gpu, provider))
    }

    /// The software that runs the job on `gpu` and the workload as it runs
    /// there, or why none does (issue 23); worked out once per GPU.
    fn set_up<'c>(
        &self,
        cached: &'c mut Option<Result<OnGpu, Msg>>,
        gpu: &Gpu,
    ) -> Result<(&'c Setup, &'c Workload), Msg> {
        let found = cached.get_or_insert_with(|| {
            on_gpu(&self.workload, self.model, gpu, &self.catalog.support).map_err(|e| e.message())
        });
        match found {
            Ok(OnGpu { setup: Ok(setup), workload }) => Ok((setup, workload)),
            Ok(OnGpu { setup: Err(reason), .. }) | Err(reason) => Err(reason.clone()),
        }
    }

    /// Where the job runs on `offer`: its machine as listed, or, where one
    /// machine lacks the GPUs, the memory or the time, the fewest nodes of
    /// a cluster its provider joins (`cluster::place`). The index of the
    /// shape in `shapes`.
    fn place(
        &self,
        index: usize,
        offer: &Offer,
        provider: Option<&Provider>,
        here: &OnThisGpu<'_>,
        shapes: &mut Vec<(ShapeKey, Shape)>,
        shortfalls: &mut Shortfalls,
    ) -> Result<(usize, OnCluster<'a>), Msg> {
        let one = ShapeKey { count: offer.gpu_count, nodes: 1, fabric: usize::MAX };
        let single_at = shape_index(shapes, one, || here.shape(Placement::node(offer.gpu_count)));
        match self.why_a_cluster(offer, here, &shapes[single_at].1)? {
            None => Ok((single_at, OnCluster { nodes: 1, joinable: None })),
            Some(need) => {
                let found = self.fabrics.fabric_of(&offer.provider, &offer.instance);
                let cluster = cluster::Cluster { index, offer, provider, found, here };
                cluster.place(&self.workload, self.deadline, shapes, &mut shortfalls.clusters, need)
            }
        }
    }

    /// What makes a cluster necessary, if anything: more GPUs than one
    /// instance has, a model one instance does not hold (`Need::memory`),
    /// or a deadline one instance misses (timed only when one is set).
    fn why_a_cluster(&self, offer: &Offer, here: &OnThisGpu<'_>, single: &Shape) -> Result<Option<cluster::Need>, Msg> {
        if cluster::asked_nodes(&self.workload, offer) > 1 {
            let why = msg!(phrases::NEEDS_GPUS, gpus = self.workload.gpus);
            return Ok(Some(cluster::Need { why, memory: false }));
        }
        match &single.fit {
            Err(reason) => return Err(reason.clone()),
            Ok(f) if !f.fits => {
                let why = f.reason.clone().unwrap_or_else(|| msg!(phrases::NEEDS_GPUS, gpus = offer.gpu_count + 1));
                return Ok(Some(cluster::Need { why, memory: true }));
            }
            Ok(_) => {}
        }
        Ok(match self.deadline.and_then(|limit| Some((limit, here.hours(single, 1, offer.price.is_none())?))) {
            Some((limit, hours)) if hours > limit => {
                let why = msg!(phrases::NEEDS_DEADLINE, time = Arg::Hours(hours), days = Arg::Num(limit / 24.0, 1));
                Some(cluster::Need { why, memory: false })
            }
            _ => None,
        })
    }

    /// `offer`'s rows on `shape`: on demand, and spot where it is allowed,
    /// offered and survives this many nodes' interruptions, each billed by
    /// its provider's rules; or why none is listed (over the budget, spot
    /// slower than the deadline, no on-demand price).
    #[allow(clippy::too_many_arguments)]
    fn price(
        &self,
        index: usize,
        offer: &Offer,
        provider: Option<&Provider>,
        here: &OnThisGpu<'_>,
        shape: &Shape,
        f: &Fit,
        on_cluster: &OnCluster<'_>,
        planned: Option<SloPlan>,
        shortfalls: &mut Shortfalls,
    ) -> Result<Vec<RankedOffer>, Msg> {
        let (workload, nodes) = (&self.workload, on_cluster.nodes);
        let survives = cost::spot_lost_share(here.runs, nodes, self.startup_s) < cost::SPOT_MAX_LOST_SHARE;
        if !survives && offer.spot_price.is_some() && self.spot_ok.is_ok() {
            shortfalls.spot_left_out_nodes = Some(shortfalls.spot_left_out_nodes.map_or(nodes, |n| n.min(nodes)));
        }
        // A reseller passing its cloud's rules through is billed as that cloud.
        let billed_as = offer.billed_as.as_deref().unwrap_or(&offer.provider);
        let billing = self.provider_index.get(billed_as).map_or(&self.terms.no_rules, |&i| &self.terms.rules[i]);
        // A cluster sold as reserved capacity only has no spot price.
        let reserved_only = on_cluster.joinable.as_ref().is_some_and(|j| j.fabric.reserved_only == Some(true));
        let spot_row = offer.spot_price.is_some()
            && self.spot_ok.is_ok()
            && survives
            && !reserved_only
            && provider.and_then(|p| p.spot_available) != Some(false);
        let (mut rows, mut over_budget, mut late, mut unverified) = (Vec::new(), false, false, false);
        for (spot, price) in [(false, offer.price), (true, offer.spot_price.filter(|_| spot_row))] {
            let Some(price) = price else { continue };
            if workload.max_price_per_hour.is_some_and(|max| price > max) {
                over_budget = true;
                continue;
            }
            let instances = planned.as_ref().map(|p| p.instances);
            let rental = Rental { spot, nodes, startup_s: self.startup_s, instances };
            let costed =
                shape.speed.as_ref().and_then(|s| cost(here.runs, self.model, &f.memory, s, offer, billing, rental));
            // A spot row slower than the deadline is not listed.
            if let (Some(limit), Some(c)) = (self.deadline, &costed) {
                if c.job_hours > limit {
                    late = true;
                    continue;
                }
            }
            let capacity = if spot { Capacity::Spot } else { Capacity::OnDemand };
            let far_below = self.terms.price_check.far_below(index, capacity);
            if workload.prices == PriceFilter::Verified
                && (far_below.is_some() || costed.as_ref().is_some_and(|c| c.assumed.any()))
            {
                unverified = true;
                continue;
            }
            let mut row_badges = badges(here.gpu, offer, shape, costed.as_ref(), spot);
            row_badges.extend(terms_badges(billing, provider, far_below.is_some(), on_cluster));
            rows.push(RankedOffer {
                offer: index,
                spot,
                runtime: here.setup.runtime,
                price_per_hour: price,
                per_gpu_bytes: f.memory.per_gpu_bytes,
                recipe: f.memory.recipe,
                max_concurrency: f.max_concurrency,
                speed: shape.speed.clone(),
                cost: costed,
                badges: row_badges,
                far_below,
                pareto: false,
                nodes,
                total_gpus: nodes * offer.gpu_count,
                fabric: on_cluster.joinable.as_ref().map(|j| j.index),
                internode_gbps: on_cluster.joinable.as_ref().filter(|j| j.network.known).map(|j| j.network.gbps),
                slo: planned.clone(),
            });
        }
        if rows.is_empty() {
            return Err(no_row(workload, over_budget, unverified, late));
        }
        Ok(rows)
    }

    /// Why no offer runs the job, when none does: no cluster meets the
    /// deadline, more GPUs than any provider joins, or no single node holds
    /// it.
    fn why_nothing_runs(&self, shortfalls: &Shortfalls) -> Option<Msg> {
        let (workload, snapshot) = (&self.workload, self.snapshot);
        if let (Some(limit), Some((hours, nodes, at))) = (self.deadline, shortfalls.clusters.fastest_missed) {
            // The GPUs the fastest cluster's throughput per GPU would need:
            // a floor, as GPU-hours grow with the GPU count (issue 40).
            let offer = &snapshot.offers[at];
            let gpus = (f64::from(nodes * offer.gpu_count) * hours / limit).ceil();
            return Some(msg!(
                phrases::NO_DEADLINE,
                days = Arg::Num(limit / 24.0, 1),
                nodes = nodes,
                instance = &offer.instance,
                time = Arg::Hours(hours),
                gpus = Arg::Num(gpus, 0)
            ));
        }
        if let (true, Some((gpus, nodes, at))) = (workload.gpus > 1, shortfalls.clusters.largest) {
            return (workload.gpus > gpus).then(|| {
                msg!(
                    phrases::NO_CLUSTER,
                    asked = workload.gpus,
                    nodes = nodes,
                    instance = &snapshot.offers[at].instance,
                    gpus = gpus
                )
            });
        }
        largest_node_shortfall(workload, self.model, self.catalog, snapshot)
    }
}

/// Why an offer whose machine holds the job has no row: its prices over the
/// budget, unverified where verified ones are asked for, spot too slow for
/// the deadline, or no on-demand price.
/// With latency targets no offer meets: the set-up that comes closest and
/// the targets it could meet (what one request alone gets on it), or, where
/// a lone request meets them everywhere it was tried, that the traffic is
/// too much.
fn why_no_plan(of_gpus: &[OfGpu], catalog: &Catalog, targets: &Targets) -> Option<Msg> {
    let (at, (alone, ratio)) = of_gpus
        .iter()
        .enumerate()
        .filter_map(|(g, of)| Some((g, serving_plan::closest(&of.plans, targets)?)))
        .min_by(|a, b| a.1 .1.total_cmp(&b.1 .1))?;
    if ratio <= 1.0 {
        let (rps, most) = (Arg::Num(targets.peak_rps, 2), serving_plan::MOST_REPLICAS);
        return Some(msg!(phrases::ADVICE_SLO_TRAFFIC, rps = rps, most = most));
    }
    // Rounded up, so that the targets it names are met.
    let ttft = (alone.ttft_s * 100.0).ceil() / 100.0;
    let itl = (alone.itl_s * 1000.0).ceil() / 1000.0;
    Some(msg!(
        phrases::ADVICE_SLO_CLOSEST,
        gpus = alone.gpus,
        gpu = &catalog.gpus[at].name,
        ttft = Arg::Num(ttft, 2),
        ms = Arg::Num(itl * 1e3, 0),
        // As a link spells them, whatever the page's language.
        ttft_key = format!("{ttft}"),
        itl_key = format!("{itl}")
    ))
}

fn no_row(workload: &Workload, over_budget: bool, unverified: bool, late: bool) -> Msg {
    match workload.max_price_per_hour {
        Some(max) if over_budget => msg!(phrases::FILTER_PRICE, max = Arg::Usd(max)),
        _ if unverified => msg!(phrases::LEFT_OUT_UNVERIFIED_PRICE),
        _ if late => msg!(phrases::DEADLINE_SPOT_LATE),
        _ => msg!(phrases::NO_ON_DEMAND_PRICE),
    }
}

/// The badges a row takes from its terms: hourly billing, an auction or
/// marketplace price, a price far below the others', and the cluster it
/// needs (its fabric unknown, or reserved capacity only).
fn terms_badges(
    billing: &Rules,
    provider: Option<&Provider>,
    far_below: bool,
    on_cluster: &OnCluster<'_>,
) -> Vec<Badge> {
    let mut badges = Vec::new();
    if billing.increment_s >= SECONDS_PER_HOUR && !billing.assumed.billing {
        badges.push(Badge::PerHourBilling);
    }
    match provider.and_then(|p| p.price_kind) {
        Some(PriceKind::Auction) => badges.push(Badge::Auction),
        Some(PriceKind::Marketplace) => badges.push(Badge::Marketplace),
        Some(PriceKind::Fixed | PriceKind::Reseller) | None => {}
    }
    if far_below {
        badges.push(Badge::UnusuallyLow);
    }
    if let Some(joinable) = &on_cluster.joinable {
        badges.push(Badge::Cluster);
        if !joinable.network.known {
            badges.push(Badge::FabricUnknown);
        }
        if joinable.fabric.reserved_only == Some(true) {
            badges.push(Badge::ReservedOnly);
        }
    }
    badges
}

/// The figure an objective minimises for one row (`None` sorts last).
fn objective_key(
    row: &RankedOffer,
    objective: Objective,
    task: Task,
    catalog: &Catalog,
    snapshot: &Snapshot,
) -> Option<f64> {
    let cost = row.cost.as_ref();
    let speed = row.speed.as_ref();
    match (objective, task) {
        (Objective::Cost, _) => cost.map(|c| c.job_cost),
        (Objective::Unit, _) => cost.map(|c| c.cost_per_unit),
        (Objective::Fast, Task::Infer) => speed.and_then(|s| s.output_tokens_per_s()).map(|t| -t),
        (Objective::Latency, Task::Infer) => speed.and_then(|s| s.decode_tokens_per_s()).map(|t| -t),
        (Objective::Fast | Objective::Latency, _) => cost.map(|c| c.job_hours),
        (Objective::Bandwidth, _) => {
            let offer = &snapshot.offers[row.offer];
            let bandwidth = catalog.gpu(&offer.gpu).ok()?.mem_bandwidth_gbps? * f64::from(offer.gpu_count);
            Some(-bandwidth / row.price_per_hour)
        }
    }
}

/// Orders the rows by the objective, then price, on-demand before spot,
/// then snapshot order: keys are computed once per row, not per comparison.
fn sort(results: &mut Vec<RankedOffer>, objective: Objective, task: Task, snapshot: &Snapshot, catalog: &Catalog) {
    let keyed: Vec<(f64, f64, bool, usize)> = results
        .iter()
        .map(|row| {
            let key = objective_key(row, objective, task, catalog, snapshot).unwrap_or(f64::INFINITY);
            (key, row.price_per_hour, row.spot, row.offer)
        })
        .collect();
    let mut order: Vec<usize> = (0..keyed.len()).collect();
    crate::sorting::sort_indices_by(&mut order, &|a, b| {
        let (a, b) = (&keyed[a], &keyed[b]);
        a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)).then(a.3.cmp(&b.3))
    });
    let mut rows: Vec<Option<RankedOffer>> = std::mem::take(results).into_iter().map(Some).collect();
    *results = order.into_iter().filter_map(|i| rows[i].take()).collect();
}

/// Marks the rows no other row beats on both cost and time.
/// Issue 40: the rows whose price one can rely on before those whose badge
/// casts doubt on it (`Badge::doubts_price`), keeping each group's order,
/// for every job (`PriceTrust::First`) or for a job over a day (`Auto`:
/// the top row's takes more than 24 hours). How many doubtful rows it moved
/// below a reliable one; `None` where it does not apply.
fn reliable_first(results: &mut [RankedOffer], trust: PriceTrust) -> Option<ReliableFirst> {
    const DAY_HOURS: f64 = 24.0;
    let long = results.first().and_then(|r| r.cost.as_ref()).is_some_and(|c| c.job_hours > DAY_HOURS);
    let always = match trust {
        PriceTrust::Off => return None,
        PriceTrust::Auto if !long => return None,
        PriceTrust::Auto => false,
        PriceTrust::First => true,
    };
    let doubtful = |r: &RankedOffer| r.badges.iter().any(|b| b.doubts_price());
    let last_reliable = results.iter().rposition(|r| !doubtful(r));
    let moved = last_reliable.map_or(0, |last| results[..last].iter().filter(|r| doubtful(r)).count());
    // A stable sort on one key is a stable partition.
    results.sort_by_key(doubtful);
    Some(ReliableFirst { moved: moved as u32, always })
}

fn mark_pareto(results: &mut [RankedOffer], task: Task) {
    let points: Vec<Option<(f64, f64)>> = results.iter().map(|r| r.cost_and_time(task)).collect();
    let mut order: Vec<usize> = (0..points.len()).filter(|&i| points[i].is_some()).collect();
    crate::sorting::sort_indices_by(&mut order, &|a, b| {
        let (Some(a), Some(b)) = (points[a], points[b]) else { return Ordering::Equal };
        a.0.partial_cmp(&b.0).unwrap_or(Ordering::Equal).then(a.1.partial_cmp(&b.1).unwrap_or(Ordering::Equal))
    });
    let mut best_time = f64::INFINITY;
    for i in order {
        let Some((_, time)) = points[i] else { continue };
        if time < best_time {
            results[i].pareto = true;
            best_time = time;
        }
    }
}

/// "No single node holds this workload: even 8× B300 SXM (2304 GiB) would need
/// 310 GiB per GPU." The node with the most GPU memory in the snapshot is the
/// best any single instance can do.
fn largest_node_shortfall(
    workload: &Workload,
    model: &super::Model,
    catalog: &Catalog,
    snapshot: &Snapshot,
) -> Option<Msg> {
    let largest = snapshot
        .offers
        .iter()
        .max_by(|a, b| a.total_vram_gb().partial_cmp(&b.total_vram_gb()).unwrap_or(Ordering::Equal))?;
    let gpu = catalog.gpu(&largest.gpu).ok()?;
    let sized = fit(workload, model, gpu, largest.gpu_count).ok()?;
    (!sized.fits).then(|| {
        msg!(
            phrases::NO_SINGLE_NODE,
            count = largest.gpu_count,
            gpu = &gpu.name,
            vram = Arg::Num(largest.total_vram_gb(), 0),
            need = Arg::Bytes(sized.memory.per_gpu_bytes)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Precision, Provider, Source};

    fn offer(instance: &str, gpu: &str, gpu_count: u32, vram_gb: f64, price: Option<f64>) -> Offer {
        Offer {
            provider: "lambda".into(),
            underlying_cloud: None,
            billed_as: None,
            instance: instance.into(),
            regions: vec!["us-east-1".into()],
            gpu: gpu.into(),
            gpu_count,
            vram_gb,
            vcpus: None,
            ram_gb: None,
            price,
            spot_price: None,
            source: "s".into(),
        }
    }

    fn snapshot(offers: Vec<Offer>) -> Snapshot {
        Snapshot {
            schema_version: crate::engine::snapshot::SCHEMA_VERSION,
            snapshot_date: "2026-09".into(),
            sources: vec![Source {
                id: "s".into(),
                name: "test".into(),
                upstream: "test".into(),
                commit: None,
                as_of: "2026".into(),
            }],
            providers: vec![Provider::without_rules("lambda", "Lambda")],
            offers,
            fabrics: Vec::new(),
        }
    }

    #[test]
    fn each_step_an_offer_fails_is_its_reason_and_the_others_are_not_taken() {
        // Admitted (a GPU the catalog knows), placed (a machine that holds
        // the job), priced (an on-demand price): each offer is left out by
        // the first step it fails, for that step's reason, and only offers
        // that pass all four become rows.
        let catalog = Catalog::bundled().unwrap();
        let snapshot = snapshot(vec![
            offer("gpu_1x_mystery", "not_a_catalog_gpu", 1, 80.0, Some(1.0)),
            offer("gpu_1x_a10", "a10", 1, 24.0, Some(0.75)),
            offer("gpu_2x_h100_unpriced", "h100_sxm", 2, 80.0, None),
            offer("gpu_2x_h100_sxm5", "h100_sxm", 2, 80.0, Some(6.38)),
        ]);
        let workload =
            Workload { model: "llama-3.1-70b".into(), weight_precision: Precision::Bf16, ..Workload::default() };
        let terms = Terms::of(&snapshot);
        let job = Job::new(workload.clone(), catalog.model("llama-3.1-70b").unwrap(), catalog, &snapshot, &terms);
        let mut of_gpus: Vec<OfGpu> = catalog.gpus.iter().map(|_| OfGpu::default()).collect();
        let mut shortfalls = Shortfalls::default();
        let outcomes: Vec<Result<usize, String>> = snapshot
            .offers
            .iter()
            .enumerate()
            .map(|(i, o)| {
                job.rows_of(i, o, &mut of_gpus, &mut shortfalls).map(|rows| rows.len()).map_err(|e| e.to_string())
            })
            .collect();
        assert_eq!(
            outcomes,
            [
                Err("unknown GPU \"not_a_catalog_gpu\": use a gpu_id from the catalog".into()),
                Err("needs 134 GiB, has 24 GiB (21.6 GiB usable)".into()),
                Err("no on-demand price in the snapshot".into()),
                Ok(1),
            ]
        );
        // Offers of one GPU share its set-up and shapes: the two 2× H100
        // offers were sized once.
        let h100 = catalog.gpus.iter().position(|g| g.id == "h100_sxm").unwrap();
        assert_eq!(of_gpus[h100].shapes.len(), 1);
    }

    #[test]
    fn offers_of_a_platform_that_closed_are_left_out_with_its_date_and_source() {
        // Issue 41: Cudo closed its public on-demand platform on 2026-03-31.
        let catalog = Catalog::bundled().unwrap();
        let mut snapshot = snapshot(vec![offer("gpu_1x_h100_sxm5", "h100_sxm", 1, 80.0, Some(2.0))]);
        snapshot.providers[0].closed =
            Some(crate::engine::snapshot::Closure { on: "2026-03-31".into(), source: "its docs".into() });
        let report = rank(&Workload::default(), catalog, &snapshot).unwrap();
        assert!(report.results.is_empty());
        assert_eq!(
            report.excluded[0].reason.to_string(),
            "Lambda stopped selling these publicly on 2026-03-31 (its docs): they can no longer be ordered"
        );
    }

    #[test]
    fn offers_that_hold_the_workload_are_listed_cheapest_first() {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = snapshot(vec![
            offer("gpu_8x_h100_sxm5", "h100_sxm", 8, 80.0, Some(23.92)),
            offer("gpu_1x_a10", "a10", 1, 24.0, Some(0.75)),
            offer("gpu_1x_h100_sxm5", "h100_sxm", 1, 80.0, Some(3.29)),
            offer("gpu_2x_h100_sxm5", "h100_sxm", 2, 80.0, Some(6.38)),
        ]);
        // Llama 3.1 70B in BF16 is 131 GiB of weights: it needs two 80 GB cards (product brief).
        let workload =
            Workload { model: "llama-3.1-70b".into(), weight_precision: Precision::Bf16, ..Workload::default() };
        let report = rank(&workload, catalog, &snapshot).unwrap();
        let listed: Vec<&str> = report.results.iter().map(|r| snapshot.offers[r.offer].instance.as_str()).collect();
        assert_eq!(listed, ["gpu_2x_h100_sxm5", "gpu_8x_h100_sxm5"]);
        let reasons: Vec<String> = report.excluded.iter().map(|e| e.reason.to_string()).collect();
        assert_eq!(
            reasons,
            ["needs 134 GiB, has 24 GiB (21.6 GiB usable)", "needs 134 GiB, has 80 GiB (72 GiB usable)"]
        );
        // Eight GPUs hold far more concurrent chats than two.
        let (two, eight) = (report.results[0].max_concurrency.unwrap(), report.results[1].max_concurrency.unwrap());
        assert!(eight > 4 * two, "{two} vs {eight}");
    }

    #[test]
    fn quantized_7b_to_13b_fits_a_24_gb_card() {
        // Product brief rule of thumb: quantized 7B–13B inference → a 24 GB card.
        let catalog = Catalog::bundled().unwrap();
        let snapshot = snapshot(vec![offer("gpu_1x_a10", "a10", 1, 24.0, Some(0.75))]);
        for model in ["llama-2-13b", "llama-3.1-8b", "mistral-7b-v0.3"] {
            let workload = Workload { model: model.into(), weight_precision: Precision::Int8, ..Workload::default() };
            let report = rank(&workload, catalog, &snapshot).unwrap();
            assert_eq!(report.results.len(), 1, "{model}: {:?}", report.excluded);
        }
    }

    #[test]
    fn an_offer_without_an_on_demand_price_is_excluded_with_that_reason() {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = snapshot(vec![offer("spot_only", "h100_sxm", 1, 80.0, None)]);
        let report = rank(&Workload::default(), catalog, &snapshot).unwrap();
        assert!(report.results.is_empty());
        assert_eq!(report.excluded[0].reason.to_string(), "no on-demand price in the snapshot");
    }

    #[test]
    fn a_workload_no_node_holds_says_what_the_largest_would_need() {
        // Llama 3.1 405B in FP32 (1.5 TiB of weights) exceeds an 8× H100 node.
        let catalog = Catalog::bundled().unwrap();
        let snapshot = snapshot(vec![
            offer("gpu_8x_h100_sxm5", "h100_sxm", 8, 80.0, Some(23.92)),
            offer("gpu_1x_h100_sxm5", "h100_sxm", 1, 80.0, Some(3.29)),
        ]);
        let workload =
            Workload { model: "llama-3.1-405b".into(), weight_precision: Precision::Fp32, ..Workload::default() };
        let report = rank(&workload, catalog, &snapshot).unwrap();
        assert!(report.results.is_empty());
        let note = report.no_single_node.unwrap();
        assert!(
            note.to_string()
                .starts_with("No single node holds this workload: even 8× H100 SXM5 80GB (640 GiB) would need 1"),
            "{note}"
        );
        // When something fits, there is no such note.
        let small = rank(&Workload::default(), catalog, &snapshot).unwrap();
        assert_eq!(small.no_single_node, None);
    }

    fn priced(instance: &str, gpu: &str, count: u32, price: f64, spot: Option<f64>) -> Offer {
        Offer { spot_price: spot, ..offer(instance, gpu, count, 80.0, Some(price)) }
    }

    #[test]
    fn the_objective_orders_the_offers_and_spot_joins_where_it_is_safe() {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = snapshot(vec![
            priced("slow", "a10", 1, 0.60, Some(0.20)),
            priced("fast", "h100_sxm", 1, 2.50, Some(1.00)),
            priced("pair", "h100_sxm", 2, 5.00, None),
        ]);
        // A fine-tune: spot rows join (it checkpoints); cheapest job first.
        let w = Workload {
            task: Task::Finetune,
            model: "llama-3.2-1b".into(),
            training_tokens: 2e8,
            ..Workload::default()
        };
        let report = rank(&w, catalog, &snapshot).unwrap();
        assert_eq!(report.objective, Objective::Cost);
        assert_eq!(report.results.len(), 5);
        let costs: Vec<f64> = report.results.iter().map(|r| r.cost.as_ref().unwrap().job_cost).collect();
        assert!(costs.windows(2).all(|c| c[0] <= c[1]), "{costs:?}");
        assert!(report.results[0].spot && report.results[0].badges.contains(&Badge::SpotSafe));
        // Fastest first puts the H100 pair ahead.
        let fast = rank(&Workload { objective: Some(Objective::Fast), ..w.clone() }, catalog, &snapshot).unwrap();
        assert_eq!(snapshot.offers[fast.results[0].offer].instance, "pair");
        // Serving leaves spot out and says why.
        let serving = rank(&Workload::default(), catalog, &snapshot).unwrap();
        assert!(serving.results.iter().all(|r| !r.spot));
        assert!(
            serving.advice.iter().any(|a| a.to_string().starts_with("Spot prices are left out")),
            "{:?}",
            serving.advice
        );
        // Unless the user insists.
        let insist =
            rank(&Workload { spot: crate::engine::SpotPolicy::Yes, ..Workload::default() }, catalog, &snapshot)
                .unwrap();
        assert!(insist.results.iter().any(|r| r.spot));
    }

    #[test]
    fn the_pareto_frontier_holds_what_nothing_beats_on_both_cost_and_time() {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = snapshot(vec![
            priced("cheap-slow", "a10", 1, 0.60, None),
            priced("dear-fast", "h100_sxm", 1, 2.50, None),
            priced("dear-slow", "a10", 1, 5.00, None),
        ]);
        let w = Workload::for_task(Task::Image);
        let report = rank(&w, catalog, &snapshot).unwrap();
        let frontier: Vec<(&str, bool)> =
            report.results.iter().map(|r| (snapshot.offers[r.offer].instance.as_str(), r.pareto)).collect();
        assert!(frontier.contains(&("dear-slow", false)), "{frontier:?}");
        assert!(frontier.iter().filter(|(_, p)| *p).count() >= 1);
        // Everything on the frontier: no other row is both cheaper and faster.
        for a in report.results.iter().filter(|r| r.pareto) {
            let (ca, ta) = (a.cost.as_ref().unwrap().job_cost, a.cost.as_ref().unwrap().job_hours);
            assert!(!report.results.iter().any(|b| {
                let (cb, tb) = (b.cost.as_ref().unwrap().job_cost, b.cost.as_ref().unwrap().job_hours);
                cb < ca && tb < ta
            }));
        }
    }

    #[test]
    fn filters_leave_offers_out_with_the_filter_as_the_reason() {
        let catalog = Catalog::bundled().unwrap();
        let mut other = priced("elsewhere", "h100_sxm", 1, 2.0, None);
        other.provider = "aws".into();
        other.regions = vec!["eu-west-1".into()];
        let snapshot = snapshot(vec![
            priced("a10", "a10", 1, 0.6, None),
            priced("h100", "h100_sxm", 1, 2.5, None),
            priced("eight", "h100_sxm", 8, 20.0, None),
            other,
        ]);
        let w = Workload {
            providers: "lambda".into(),
            region: "US-EAST".into(),
            max_price_per_hour: Some(3.0),
            max_gpus: Some(4),
            vendor: "nvidia".into(),
            ..Workload::default()
        };
        let report = rank(&w, catalog, &snapshot).unwrap();
        let listed: Vec<&str> = report.results.iter().map(|r| snapshot.offers[r.offer].instance.as_str()).collect();
        assert_eq!(listed.len(), 2, "{listed:?}");
        let reasons: Vec<String> = report.excluded.iter().map(|e| e.reason.to_string()).collect();
        assert!(reasons.iter().any(|r| r == "outside your filters: 8 GPUs, more than 4"), "{reasons:?}");
        assert!(reasons.iter().any(|r| r == "outside your filters: provider is not lambda"), "{reasons:?}");
        let cheap =
            rank(&Workload { max_price_per_hour: Some(1.0), ..Workload::default() }, catalog, &snapshot).unwrap();
        assert!(cheap.excluded.iter().any(|e| e.reason.to_string() == "outside your filters: more than $1.00/h"));
        let amd = rank(&Workload { vendor: "amd".into(), ..Workload::default() }, catalog, &snapshot).unwrap();
        assert!(
            amd.results.is_empty()
                && amd.excluded.iter().all(|e| e.reason.to_string() == "outside your filters: not a amd GPU")
        );
    }

    #[test]
    fn the_gpu_filter_keeps_offers_whose_gpu_id_or_name_holds_one_of_its_words() {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = snapshot(vec![
            priced("a10", "a10", 1, 0.6, None),
            priced("h100-sxm", "h100_sxm", 1, 2.5, None),
            priced("h100-pcie", "h100_pcie", 1, 2.0, None),
            priced("a100", "a100_sxm_80gb", 1, 1.5, None),
        ]);
        let listed = |filter: &str| {
            let report =
                rank(&Workload { gpu_filter: filter.into(), ..Workload::default() }, catalog, &snapshot).unwrap();
            let mut listed: Vec<String> =
                report.results.iter().map(|r| snapshot.offers[r.offer].instance.clone()).collect();
            listed.sort();
            (listed, report.excluded.iter().map(|e| e.reason.to_string()).collect::<Vec<_>>())
        };
        // A family by its id, a kind by its whole id, two families; the
        // catalog's names count too (gpus.csv: "H100 SXM5 80GB").
        assert_eq!(listed("h100").0, ["h100-pcie", "h100-sxm"]);
        assert_eq!(listed("h100_sxm").0, ["h100-sxm"]);
        assert_eq!(listed("h100_pcie,a100").0, ["a100", "h100-pcie"]);
        assert_eq!(listed("sxm5").0, ["h100-sxm"]);
        let (none, reasons) = listed("mi300x");
        assert!(none.is_empty());
        assert!(reasons.iter().all(|r| r == "outside your filters: a GPU matching none of \"mi300x\""), "{reasons:?}");
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))] // the committed snapshot is read from disk
    fn the_one_gpu_advice_speaks_of_serving_only_for_serving() {
        // Pretraining's and video's best offers use several GPUs though one
        // holds the job: the advice says one card, without serving's words.
        let catalog = Catalog::bundled().unwrap();
        let snapshot = crate::engine::snapshot::committed();
        for task in [Task::Pretrain, Task::Video] {
            // By the objective alone: these jobs run over a day, and putting
            // reliable prices first reorders the rows the advice counts.
            let w = Workload { price_trust: PriceTrust::Off, ..Workload::for_task(task) };
            let report = rank(&w, catalog, &snapshot).unwrap();
            let advice: Vec<String> = report.advice.iter().map(ToString::to_string).collect();
            let one =
                advice.iter().find(|a| a.starts_with("It fits on one GPU")).unwrap_or_else(|| panic!("{advice:?}"));
            assert!(!one.contains("serving") && one.contains("mostly buys time, not savings"), "{task:?}: {one}");
            // The single-card offer it names is the row it says.
            let rank: usize = one.split("is row ").nth(1).unwrap().split(';').next().unwrap().parse().unwrap();
            let row = &report.results[rank - 1];
            assert_eq!(snapshot.offers[row.offer].gpu_count, 1, "{one}");
            assert!(one.contains(&snapshot.offers[row.offer].instance), "{one}");
            assert!(report.results[..rank - 1].iter().all(|r| snapshot.offers[r.offer].gpu_count > 1), "{one}");
        }
    }

    #[test]
    fn badges_and_advice_follow_the_case() {
        let catalog = Catalog::bundled().unwrap();
        let snapshot =
            snapshot(vec![priced("pair-nvlink", "h100_sxm", 2, 5.0, None), priced("pair-pcie", "l40s", 4, 4.0, None)]);
        // Llama 3.1 70B in BF16 spans GPUs: NVLink and PCIe-only badges, and
        // the advice to choose GPUs joined by such a link.
        let w = Workload { model: "llama-3.1-70b".into(), ..Workload::default() };
        let report = rank(&w, catalog, &snapshot).unwrap();
        let of = |name: &str| report.results.iter().find(|r| snapshot.offers[r.offer].instance == name).unwrap();
        assert!(of("pair-nvlink").badges.contains(&Badge::Nvlink) && of("pair-nvlink").badges.contains(&Badge::Hbm));
        assert!(of("pair-pcie").badges.contains(&Badge::PcieOnly));
        assert!(of("pair-nvlink").badges.contains(&Badge::Fp8));
        assert!(
            report.advice.iter().any(|a| a.to_string().starts_with(
                "Your model spans at least 2 GPUs: choose GPUs joined by NVLink or Infinity Fabric (1 of"
            )),
            "{:?}",
            report.advice
        );
        assert!(
            report.advice.iter().any(|a| a.to_string().starts_with("Decoding is memory-bound")),
            "{:?}",
            report.advice
        );
        // A small job on per-hour billing: the advice puts a number on it.
        let mut hourly = snapshot.clone();
        hourly.providers[0].billing_increment_s = Some(3600);
        hourly.providers[0].minimum_charge_s = Some(3600);
        let short = Workload { items: 100, ..Workload::for_task(Task::Image) };
        let report = rank(&short, catalog, &hourly).unwrap();
        assert!(report.results[0].badges.contains(&Badge::PerHourBilling));
        let billing = report.advice.iter().find(|a| a.to_string().contains("billed as 1.0 h on")).unwrap();
        assert!(
            billing.to_string().starts_with("This job of ")
                && billing.to_string().contains(" min is billed")
                && billing.to_string().contains("per-hour billing"),
            "{billing}"
        );
        // A minimum charge under an hour (Spheron's 20 minutes, providers.csv)
        // reads as time, not as "0 hour(s)".
        let mut minimum = snapshot.clone();
        minimum.providers[0].billing_increment_s = Some(1);
        minimum.providers[0].minimum_charge_s = Some(1200);
        let report = rank(&Workload { items: 10, ..Workload::for_task(Task::Image) }, catalog, &minimum).unwrap();
        let billing = report.advice.iter().find(|a| a.to_string().starts_with("This job of ")).unwrap();
        assert!(billing.to_string().contains("billed as 20 min on"), "{billing}");
    }

    /// The queries against the committed snapshot (issue 24).
    #[cfg(not(target_arch = "wasm32"))]
    fn ranked(query: &str) -> (Report, Snapshot) {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = crate::engine::snapshot::committed();
        let workload = crate::url_codec::decode(query, catalog).workload;
        (rank(&workload, catalog, &snapshot).unwrap(), snapshot)
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn pretraining_on_256_gpus_ranks_clusters_that_hold_it_in_days() {
        for query in [
            "task=pretrain&model=llama-3.1-70b&gpus=256&zero=3&tokens=1e12",
            // Without zero=3 the stage is raised until it fits, and said.
            "task=pretrain&model=llama-3.1-70b&gpus=256&tokens=1e12",
        ] {
            let (report, snapshot) = ranked(query);
            assert!(report.results.len() > 20, "{query}: {}", report.results.len());
            for row in &report.results {
                let offer = &snapshot.offers[row.offer];
                assert!(row.total_gpus >= 256 && row.nodes > 1, "{query}: {} {}", offer.instance, row.nodes);
                assert_eq!(row.total_gpus, row.nodes * offer.gpu_count);
                assert!(row.badges.contains(&Badge::Cluster));
                // Only providers whose data says they join these instances.
                let fabric = &snapshot.fabrics[row.fabric.unwrap()];
                assert_eq!(fabric.multi_node, crate::engine::fabric::MultiNode::Yes);
                assert_eq!(row.badges.contains(&Badge::FabricUnknown), fabric.internode_gbps.is_none());
            }
            // Days, not years: the best takes under two months.
            let best = report.results[0].cost.as_ref().unwrap();
            assert!(best.job_hours < 60.0 * 24.0, "{query}: {} h", best.job_hours);
            assert_eq!(best.nodes, report.results[0].nodes);
            // A pretraining run is not put on spot unless asked (issue 40),
            // and the advice says why.
            assert!(report.results.iter().all(|r| !r.spot));
            assert!(report.results.iter().any(|r| r.nodes == 32));
            let advice: Vec<String> = report.advice.iter().map(ToString::to_string).collect();
            assert!(
                advice.iter().any(|a| a.starts_with("Spot prices are left out: a pretraining run holds its nodes")),
                "{advice:?}"
            );
            assert!(advice.iter().any(|a| a.starts_with("This job spans nodes")), "{advice:?}");
            // Providers whose instances do not form clusters say so.
            let lambda =
                report.excluded.iter().find(|e| snapshot.offers[e.offer].instance == "gpu_8x_h100_sxm5").unwrap();
            assert_eq!(
                lambda.reason.to_string(),
                "needs 256 GPUs, more than one instance has, and Lambda (Lambda Cloud) does not join these instances into multi-node clusters"
            );
        }
        // Asked for (spot=yes), spot is left out of 32-node clusters (an
        // interruption every 38 minutes), kept for 16 nodes of 16, and the
        // advice says why.
        let (report, _) = ranked("task=pretrain&model=llama-3.1-70b&gpus=256&zero=3&tokens=1e12&spot=yes");
        assert!(report.results.iter().filter(|r| r.spot).all(|r| r.nodes < 32));
        assert!(report.results.iter().any(|r| r.spot) && report.results.iter().any(|r| !r.spot && r.nodes == 32));
        let advice: Vec<String> = report.advice.iter().map(ToString::to_string).collect();
        assert!(advice.iter().any(|a| a.starts_with("Spot is left out for clusters of 32")), "{advice:?}");
        let (raised, _) = ranked("task=pretrain&model=llama-3.1-70b&gpus=256&tokens=1e12");
        let notes = raised.results[0].speed.as_ref().unwrap().notes.iter().map(ToString::to_string).collect::<Vec<_>>();
        assert!(notes.iter().any(|n| n.starts_with("sharded with ZeRO-")), "{notes:?}");
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn a_cluster_sold_as_reserved_capacity_only_has_no_spot_row() {
        // Issue 40: a 7B pretraining run ranked first on 5 × p6-b200 on spot
        // while badged "clusters reserved only". Even with spot asked for.
        // AWS sells p6-b200 clusters as Capacity Blocks only (cluster_fabrics.csv).
        let (report, snapshot) = ranked("task=pretrain&gpus=40&spot=yes");
        let p6 = |offer: usize| snapshot.offers[offer].instance == "p6-b200.48xlarge";
        let clusters: Vec<&RankedOffer> = report.results.iter().filter(|r| p6(r.offer) && r.nodes > 1).collect();
        assert!(clusters.iter().all(|r| !r.spot && r.badges.contains(&Badge::ReservedOnly)));
        assert!(!clusters.is_empty(), "5 nodes of p6-b200 hold a 40-GPU run");
        // And by default a pretraining run is not put on spot at all.
        let (report, _) = ranked("task=pretrain&days=30");
        assert!(report.results.iter().all(|r| !r.spot));
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn verified_prices_leave_out_what_a_reader_cannot_check_and_say_why() {
        // Issue 40: a full fine-tune's top three rows were all "unusually
        // low price", and most rows assumed billing rules.
        let (all, _) = ranked("task=finetune&method=full");
        let doubtful = [Badge::UnusuallyLow, Badge::Marketplace, Badge::Auction, Badge::RulesAssumed];
        assert!(all.results.iter().take(20).any(|r| r.badges.iter().any(|b| doubtful.contains(b))));
        let (verified, _) = ranked("task=finetune&method=full&prices=verified");
        assert!(verified.results.len() > 20, "{}", verified.results.len());
        assert!(verified.results.iter().all(|r| !r.badges.iter().any(|b| doubtful.contains(b))));
        let reasons: Vec<String> = verified.excluded.iter().map(|e| e.reason.to_string()).collect();
        assert!(reasons.iter().any(|r| r.starts_with("not the provider's own list price")), "{reasons:?}");
        assert!(reasons.iter().any(|r| r.starts_with("its price is far below every other provider's")), "{reasons:?}");
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn the_405b_in_bf16_is_served_on_one_big_node_or_on_two_joined_ones() {
        let (report, snapshot) = ranked("model=llama-3.1-405b&wq=bf16");
        let one = report.results.iter().find(|r| r.nodes == 1 && snapshot.offers[r.offer].gpu == "h200_sxm");
        assert!(one.is_some());
        let two = report
            .results
            .iter()
            .find(|r| r.nodes == 2 && snapshot.offers[r.offer].instance == "p5.48xlarge")
            .expect("2 × p5.48xlarge");
        assert_eq!(two.total_gpus, 16);
        assert_eq!(two.internode_gbps, Some(3200.0));
        let serving = two.speed.as_ref().unwrap().serving().unwrap();
        assert_eq!((serving.gpus_per_replica, serving.pipeline_stages), (16, Some(2)));
        // Two nodes of eight: the hourly price is both of them.
        assert_eq!(two.hourly_price(), 2.0 * two.price_per_hour);
        let cost = two.cost.as_ref().unwrap();
        assert!((cost.gpu_cost - 2.0 * two.price_per_hour * cost.billed_hours).abs() < 1e-6);
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn a_deadline_sizes_each_cluster_and_says_when_none_meets_it() {
        let base = "task=pretrain&model=llama-3.1-70b&gpus=256&zero=3&tokens=1e12";
        let (open, snapshot) = ranked(base);
        let (month, _) = ranked(&format!("{base}&days=30"));
        let nodes_of = |report: &Report, instance: &str| {
            report.results.iter().find(|r| snapshot.offers[r.offer].instance == instance).map(|r| r.nodes)
        };
        // Without a deadline, 32 nodes of p5 as asked; within 30 days, the
        // fewest that finish in time, more than 32.
        assert_eq!(nodes_of(&open, "p5.48xlarge"), Some(32));
        let sized = nodes_of(&month, "p5.48xlarge").unwrap();
        assert!(sized > 32, "{sized}");
        for row in &month.results {
            assert!(row.cost.as_ref().unwrap().job_hours <= 30.0 * 24.0);
        }
        // One node fewer would miss it.
        let fewer = month.results.iter().find(|r| snapshot.offers[r.offer].instance == "p5.48xlarge").unwrap();
        let per_node = fewer.cost.as_ref().unwrap().job_hours * f64::from(sized);
        assert!(per_node / f64::from(sized - 1) > 30.0 * 24.0 * 0.98);
        // Seven days: nothing in the data is big enough, and the note says so.
        // Asked for the largest cluster already (64 × p5 = 512 GPUs) and a
        // day: nothing to grow, said, not a crash.
        let (most, _) = ranked("task=pretrain&model=llama-3.1-70b&gpus=512&zero=3&tokens=1e12&days=1&provider=aws");
        assert!(most.results.is_empty());
        assert!(most.excluded.iter().any(|e| e.reason.to_string().starts_with("even 64 nodes (512 GPUs) take ")));
        // (The fastest, 64 nodes of B200, take about ten days.)
        let (none, _) = ranked(&format!("{base}&days=7"));
        assert!(none.results.is_empty());
        let note = none.no_single_node.unwrap().to_string();
        assert!(note.starts_with("No offer finishes this job within 7.0 days: the fastest, 64 × "), "{note}");
        // And how many GPUs it would take at least: 512 × its days / 7.
        let at_least: f64 =
            note.split("at least ").nth(1).unwrap().split(' ').next().unwrap().replace(',', "").parse().unwrap();
        assert!((600.0..2000.0).contains(&at_least), "{note}");
        assert!(none.excluded.iter().any(|e| e.reason.to_string().contains("past the 7.0-day deadline")));
    }

    /// Issue 40: 70B on 15T tokens with no deadline ranked "9,094 days on
    /// one node" first. Without a deadline or a GPU count, each offer is
    /// sized to finish within 90 days, and the advice says so.
    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn a_pretraining_run_without_a_deadline_is_sized_to_finish_in_a_quarter() {
        let (big, _) = ranked("task=pretrain&model=llama-3.1-70b&tokens=15T");
        assert!(big.results.is_empty());
        let note = big.no_single_node.unwrap().to_string();
        assert!(note.starts_with("No offer finishes this job within 90.0 days: the fastest, "), "{note}");
        assert!(big.advice[0].to_string().starts_with(
            "No deadline or GPU count was given: each offer is sized to the fewest nodes that finish within 90 days."
        ));
        let (small, _) = ranked("task=pretrain&model=llama-3.1-8b&tokens=1T");
        assert!(!small.results.is_empty());
        assert!(small.results.iter().all(|r| r.cost.as_ref().unwrap().job_hours <= 90.0 * 24.0));
        assert!(small.results.iter().any(|r| r.nodes > 1), "clusters where one node is too slow");
        // A deadline or a GPU count given is the user's: nothing assumed.
        for asked in
            ["task=pretrain&model=llama-3.1-8b&tokens=1T&days=200", "task=pretrain&model=llama-3.1-8b&tokens=1T&gpus=8"]
        {
            let (report, _) = ranked(asked);
            assert!(!report.advice.iter().any(|a| a.to_string().starts_with("No deadline or GPU count")), "{asked}");
        }
        let (slow, _) = ranked("task=pretrain&model=llama-3.1-8b&tokens=1T&gpus=8");
        assert!(slow.results.iter().any(|r| r.cost.as_ref().unwrap().job_hours > 90.0 * 24.0));
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn more_gpus_than_any_provider_joins_is_said_not_answered_on_one_node() {
        let (report, _) = ranked("task=pretrain&model=llama-3.1-70b&gpus=5000&zero=3");
        assert!(report.results.is_empty());
        let note = report.no_single_node.unwrap().to_string();
        assert!(
            note.starts_with("No provider in the data joins 5,000 GPUs into one cluster: the largest here is 64 × "),
            "{note}"
        );
    }

    #[test]
    fn an_unknown_model_is_an_error_not_an_empty_list() {
        let catalog = Catalog::bundled().unwrap();
        let workload = Workload { model: "gpt-7".into(), ..Workload::default() };
        assert_eq!(rank(&workload, catalog, &snapshot(vec![])), Err(Error::UnknownModel("gpt-7".into())));
    }

    /// Issue 40: a full fine-tune that runs over a day ranks the rows whose
    /// price one can rely on first and says how many it moved; a shorter one
    /// is ranked by its objective alone unless asked (`rely=first`), and
    /// `rely=off` turns it off.
    #[cfg(not(target_arch = "wasm32"))] // the committed snapshot is read from disk
    #[test]
    fn jobs_over_a_day_rank_prices_one_can_rely_on_first() {
        let catalog = Catalog::bundled().unwrap();
        let snap = crate::engine::snapshot::committed();
        let long = crate::url_codec::decode("task=finetune&method=full&tokens=20B", catalog).workload;
        let doubtful = |r: &RankedOffer| r.badges.iter().any(|b| b.doubts_price());
        let ranked = rank(&long, catalog, &snap).unwrap();
        assert!(ranked.results[0].cost.as_ref().unwrap().job_hours > 24.0);
        let first = ranked.reliable_first.unwrap();
        assert!(!first.always && first.moved > 0, "{first:?}");
        let said = ranked.advice[0].to_string();
        assert!(said.starts_with("This runs for over a day, so prices you can rely on come first: "), "{said}");
        let split = ranked.results.iter().position(doubtful).unwrap();
        assert!(split > 0 && ranked.results[split..].iter().all(doubtful));
        // Off: the objective alone, where a doubtful price led.
        let off = rank(&Workload { price_trust: PriceTrust::Off, ..long.clone() }, catalog, &snap).unwrap();
        assert_eq!(off.reliable_first, None);
        assert!(!off.advice.iter().any(|a| a.to_string().contains("prices you can rely on")));
        assert_eq!(off.results.len(), ranked.results.len());
        let moved = off
            .results
            .iter()
            .enumerate()
            .filter(|(i, r)| doubtful(r) && off.results[*i..].iter().any(|later| !doubtful(later)))
            .count();
        assert_eq!(moved as u32, first.moved);
        // A job of under an hour: the objective alone, unless asked.
        let short = crate::url_codec::decode("task=finetune&method=full", catalog).workload;
        let quick = rank(&short, catalog, &snap).unwrap();
        assert!(quick.results[0].cost.as_ref().unwrap().job_hours < 24.0);
        assert_eq!(quick.reliable_first, None);
        assert!(doubtful(&quick.results[0]), "the objective's own top row has a doubtful price");
        let asked = rank(&Workload { price_trust: PriceTrust::First, ..short }, catalog, &snap).unwrap();
        assert!(asked.reliable_first.is_some_and(|f| f.always && f.moved > 0));
        assert!(!doubtful(&asked.results[0]));
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))] // the committed snapshot is read from disk
    fn a_ranking_taken_a_few_offers_at_a_time_reports_what_one_step_reports() {
        let catalog = Catalog::bundled().unwrap();
        let snap = crate::engine::snapshot::committed();
        let terms = Terms::of(&snap);
        terms.plan_with(crate::engine::serving_plan::plan);
        // Latency targets, whose plans are shared by offers of one GPU across steps.
        let query = "model=llama-3.1-8b&in=1000&out=300&rps=5&ttft=1&itl=0.05&pct=95";
        let workload = crate::url_codec::decode(query, catalog).workload;
        let whole = rank_with(&workload, catalog, &snap, &terms).unwrap();
        assert!(whole.results.iter().any(|r| r.slo.is_some()), "planned rows");
        let model = workload.resolve_model(catalog).unwrap();
        for step in [1, 7, 250] {
            let mut ranking = Ranking::start(&workload, &model, catalog, &snap, &terms).unwrap();
            let mut steps = 1;
            while !ranking.advance(step) {
                steps += 1;
                let (done, of) = ranking.progress();
                assert_eq!((done, of), (step * (steps - 1), snap.offers.len()));
            }
            assert_eq!(steps, snap.offers.len().div_ceil(step));
            assert_eq!(ranking.finish(), whole, "in steps of {step}");
        }
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))] // the committed snapshot is read from disk
    fn allowed_formats_are_taken_where_they_need_fewer_instances_than_the_models_own() {
        use crate::engine::KvPrecision;
        let catalog = Catalog::bundled().unwrap();
        let snap = crate::engine::snapshot::committed();
        let query = "model=llama-3.3-70b&wq=bf16&rps=2&in=1000&out=300&ttft=1&itl=0.05&pct=95";
        let keep = rank(&crate::url_codec::decode(query, catalog).workload, catalog, &snap).unwrap();
        let allowed = crate::url_codec::decode(&format!("{query}&quant=allow"), catalog).workload;
        let allow = rank(&allowed, catalog, &snap).unwrap();
        let plan = |r: &RankedOffer| r.slo.clone().expect("a planned row");
        // Cheaper at the top, and more offers serve the traffic.
        assert!(
            allow.results[0].cost.as_ref().unwrap().monthly_cost < keep.results[0].cost.as_ref().unwrap().monthly_cost
        );
        assert!(allow.results.len() > keep.results.len());
        let own = |row: &RankedOffer| keep.results.iter().find(|k| k.offer == row.offer && k.spot == row.spot);
        let mut smaller = 0;
        for row in &allow.results {
            let p = plan(row);
            if (p.weights, p.kv_cache) == (Precision::Bf16, KvPrecision::Bf16) {
                // The model's own formats where they do as well.
                assert_eq!(own(row).map(|k| plan(k).instances), Some(p.instances));
                continue;
            }
            smaller += 1;
            assert!(matches!(p.weights, Precision::Bf16 | Precision::Fp8 | Precision::Awq), "{p:?}");
            assert_eq!(p.kv_cache, KvPrecision::Fp8);
            // Only where the model's own formats need more instances or cannot serve.
            if let Some(k) = own(row) {
                assert!(
                    plan(k).instances > p.instances,
                    "offer {}: {} vs {}",
                    row.offer,
                    plan(k).instances,
                    p.instances
                );
            }
        }
        assert!(smaller > 0);
        // Keep (the default) plans the model's own formats only.
        assert!(keep.results.iter().all(|r| plan(r).weights == Precision::Bf16));
    }
}
