//! The summary statistics every bench reports, written once (included by path: benches have no
//! library to share).

/// The median of `samples`, which it sorts: the middle sample, or the mean of the two middle
/// ones when their number is even; `0` when there are none.
pub fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    let middle = samples.len() / 2;
    match samples.len() {
        0 => 0.0,
        count if count % 2 == 1 => samples[middle],
        _ => (samples[middle - 1] + samples[middle]) / 2.0,
    }
}
