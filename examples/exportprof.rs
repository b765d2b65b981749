use whichgpu::engine::{rank, Catalog, Snapshot};
fn main() {
    let catalog = Catalog::bundled().unwrap();
    let bytes = std::fs::read("public/data/offers.json").unwrap();
    let mut snapshot = Snapshot::from_bytes(&bytes).unwrap();
    snapshot.offers = snapshot.offers.into_iter().step_by(32).collect();
    let mode = std::env::args().nth(2).unwrap();
    let inputs: Vec<String> = std::fs::read_dir(std::env::args().nth(1).unwrap())
        .unwrap()
        .map(|e| String::from_utf8_lossy(&std::fs::read(e.unwrap().path()).unwrap()).to_string())
        .collect();
    let reports: Vec<_> = inputs
        .iter()
        .filter_map(|q| rank(&whichgpu::url_codec::decode(q, catalog).workload, catalog, &snapshot).ok())
        .collect();
    let t = std::time::Instant::now();
    let mut n = 0;
    for _ in 0..5 {
        for r in &reports {
            n += 1;
            match mode.as_str() {
                "json" => {
                    std::hint::black_box(whichgpu::export::download_json(r, &snapshot, catalog));
                }
                "csv" => {
                    std::hint::black_box(whichgpu::export::results_csv(
                        r,
                        &snapshot,
                        catalog,
                        whichgpu::text::Lang::En,
                    ));
                }
                _ => {
                    whichgpu::hardening::check_report(r, &snapshot, catalog, &whichgpu::text::Lang::ALL);
                }
            }
        }
    }
    println!("{mode}: {:.0} µs per report", t.elapsed().as_secs_f64() * 1e6 / n as f64);
}
