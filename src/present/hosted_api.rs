//! Hosted APIs beside renting (issue 39): what the page and the CLI say of
//! the cheapest hosted API for the workload's model
//! (`engine::hosted_api::compare`).

use crate::engine::hosted_api::HostedApi;
use crate::msg;
use crate::text::{phrases, Arg, Msg};

/// Requests a day, to three significant figures: the break-even is as
/// rough as the prices' last digit.
fn about(requests: f64) -> Arg {
    if !(requests.is_finite() && requests >= 1.0) {
        return Arg::Int(requests.max(0.0).round() as i64);
    }
    let scale = 10f64.powi(requests.log10().floor() as i32 - 2).max(1.0);
    Arg::Int(((requests / scale).round() * scale) as i64)
}

/// What the comparison says, a sentence each: the cheapest API and its
/// prices; the stated traffic's month there against renting; where renting
/// wins; and, with latency targets, that the API's latency is not checked.
/// `model` is the model's name as the page shows it.
pub fn lines(api: &HostedApi, model: &str, targets: bool) -> Vec<Msg> {
    let mut said = vec![msg!(
        phrases::HOSTED_CHEAPEST,
        model = model.to_string(),
        provider = api.provider_name.clone(),
        input = Arg::Usd(api.input_usd_per_mtok),
        output = Arg::Usd(api.output_usd_per_mtok),
        request = Arg::Usd(api.cost_per_request),
        listings = api.providers,
        version = api.source.version.clone(),
        published = api.source.published.clone()
    )];
    if let (Some(monthly), Some(renting)) = (api.monthly_cost, api.renting_monthly_cost) {
        let requests = monthly / (crate::engine::cost::DAYS_PER_MONTH * api.cost_per_request);
        said.push(msg!(
            phrases::HOSTED_MONTH,
            requests = about(requests),
            api = Arg::Usd(monthly),
            renting = Arg::Usd(renting)
        ));
    }
    match (api.break_even_requests_per_day, api.renting_sized_for_requests_per_day) {
        (Some(even), Some(sized)) if even <= sized => {
            said.push(msg!(phrases::HOSTED_RENTING_WINS, even = about(even), sized = about(sized)));
        }
        (Some(even), Some(sized)) => {
            said.push(msg!(phrases::HOSTED_API_CHEAPER, even = about(even), sized = about(sized)));
        }
        (Some(even), None) => said.push(msg!(phrases::HOSTED_BREAK_EVEN, even = about(even))),
        (None, _) => {}
    }
    if targets {
        said.push(msg!(phrases::HOSTED_LATENCY_UNCHECKED));
    }
    said
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::engine::hosted_api::PriceSource;
    use crate::text::Lang;

    fn api(monthly: Option<f64>, renting: Option<f64>, sized: Option<f64>, even: Option<f64>) -> HostedApi {
        HostedApi {
            provider: "deepinfra".into(),
            provider_name: "DeepInfra".into(),
            key: "deepinfra/meta-llama/Llama-3.3-70B-Instruct".into(),
            input_usd_per_mtok: 0.1,
            output_usd_per_mtok: 0.32,
            cost_per_request: 0.000196,
            monthly_cost: monthly,
            renting_monthly_cost: renting,
            renting_sized_for_requests_per_day: sized,
            break_even_requests_per_day: even,
            providers: 33,
            source: PriceSource {
                package: "litellm".into(),
                version: "1.110.2".into(),
                published: "2026-11-20".into(),
                file: "litellm/model_prices_and_context_window_backup.json".into(),
                json_sha256: String::new(),
            },
        }
    }

    fn said(api: &HostedApi, targets: bool, lang: Lang) -> Vec<String> {
        lines(api, "Llama 3.3 70B", targets).iter().map(|m| m.render(lang)).collect()
    }

    #[test]
    fn an_api_cheaper_at_every_traffic_the_row_serves_says_so() {
        // 2 requests/s all day: 172,800 a day; renting breaks even at 563,000.
        let monthly = 172_800.0 * 30.4375 * 0.000196;
        let words = said(&api(Some(monthly), Some(3359.0), Some(172_800.0), Some(563_123.0)), true, Lang::En);
        assert_eq!(words.len(), 4, "{words:?}");
        assert_eq!(
            words[0],
            "The cheapest hosted API for Llama 3.3 70B is DeepInfra: $0.100 per 1M input tokens and $0.320 per 1M \
             output tokens, $0.00020 a request (33 listings of the model in LiteLLM 1.110.2's price table, 2026-11-20)."
        );
        assert_eq!(
            words[1],
            "Your traffic (173,000 requests a day) costs $1,031 a month there, against $3,359 a month renting the first row."
        );
        assert!(
            words[2].starts_with(
                "Renting the first row would only win above about 563,000 requests a day, more than the 173,000"
            ),
            "{}",
            words[2]
        );
        assert!(words[3].contains("does not check them against your targets"));
    }

    #[test]
    fn renting_that_wins_within_what_the_row_serves_names_the_break_even() {
        let words = said(&api(Some(30_000.0), Some(3359.0), Some(1_000_000.0), Some(563_123.0)), false, Lang::En);
        assert_eq!(words.len(), 3);
        assert_eq!(
            words[2],
            "Renting the first row wins above about 563,000 requests a day; it is sized for 1,000,000."
        );
        let es = said(&api(Some(30_000.0), Some(3359.0), Some(1_000_000.0), Some(563_123.0)), false, Lang::Es);
        assert!(
            es[2].starts_with("Alquilar la primera fila sale a cuenta por encima de unas 563.000 peticiones al día"),
            "{}",
            es[2]
        );
    }

    #[test]
    fn without_stated_traffic_the_month_of_renting_is_put_in_requests() {
        let words = said(&api(None, Some(3359.0), None, Some(17_137.8)), false, Lang::En);
        assert_eq!(words.len(), 2, "{words:?}");
        assert!(
            words[1].starts_with("A month of the first row costs as much as about 17,100 requests a day there"),
            "{}",
            words[1]
        );
        // Nothing to rent (no row): the prices alone.
        assert_eq!(said(&api(None, None, None, None), false, Lang::En).len(), 1);
    }

    #[test]
    fn requests_are_rounded_to_three_figures() {
        let int = |x: f64| match about(x) {
            Arg::Int(n) => n,
            _ => unreachable!(),
        };
        assert_eq!((int(0.4), int(7.0), int(123.4), int(98_765.0), int(1_234_567.0)), (0, 7, 123, 98_800, 1_230_000));
    }
}
