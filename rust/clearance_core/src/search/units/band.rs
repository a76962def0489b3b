//! The diagonal band scan of [`UnitsView::first_touched_diagonal`](super::UnitsView): the
//! touched rectangles a diagonal ray's straight parts reach, found among rectangles sorted
//! along one axis.

use super::AnchorRect;

/// One axis of [`UnitsView::first_touched_diagonal`]: among `rects` (sorted by their start on
/// the *band* axis, none longer than `longest` on it; `span` gives a rectangle's band start and
/// end and its start and end on the other, *across* axis, ends exclusive), the fewest steps `k`
/// below `best` at which the ray, at `band + k * band_step` and `across + k * across_step`,
/// lies in a rectangle's band and inside it, or ahead of it on the across axis within
/// `reach(k)` steps of its straight part. `best` if none. With `corners`, a rectangle ahead
/// counts only on its first and last line of the band, and only if the straight part reaches
/// its far end there: its far corner, the one place a unit can turn that part (see
/// `jump/units.rs`).
///
/// [`UnitsView::first_touched_diagonal`]: super::UnitsView::first_touched_diagonal
pub(super) fn first_in_band(
    (rects, longest, span): (
        &[AnchorRect],
        usize,
        impl Fn(&AnchorRect) -> (usize, usize, usize, usize),
    ),
    ((band, band_step), (across, across_step)): ((isize, isize), (isize, isize)),
    last: isize,
    mut best: isize,
    reach: impl Fn(isize) -> usize,
    corners: bool,
) -> isize {
    let (low, high) = ordered(band + band_step, band + band_step * last);
    let first = rects.partition_point(|rect| (span(rect).0 + longest) as isize <= low);
    for rect in &rects[first..] {
        let (band0, band1, across0, across1) = span(rect);
        if band0 as isize > high {
            break;
        }
        let (near_edge, far_edge) = (across0 as isize, across1 as isize - 1);
        // Steps at which the ray is in the rectangle's band, nearest first.
        let Some((near, far)) = steps_in(band, band_step, band0 as isize, band1 as isize - 1, last)
        else {
            continue;
        };
        // Wholly behind the ray at its nearest step in the band: no part reaches it.
        if (across_step > 0 && far_edge < across + near)
            || (across_step < 0 && near_edge > across - near)
        {
            continue;
        }
        if !corners {
            for k in near..=far.min(best - 1) {
                let position = across + k * across_step;
                let ahead = if across_step > 0 {
                    near_edge - position
                } else {
                    position - far_edge
                };
                let inside = (near_edge..=far_edge).contains(&position);
                if inside || (ahead > 0 && ahead as usize <= reach(k)) {
                    best = k;
                    break;
                }
            }
            continue;
        }
        let far = far.min(best - 1);
        if near > far {
            continue;
        }
        // The steps at which the ray is inside the rectangle.
        let (first_inside, last_inside) = if across_step > 0 {
            (near_edge - across, far_edge - across)
        } else {
            (across - far_edge, across - near_edge)
        };
        if first_inside.max(near) <= last_inside.min(far) {
            best = first_inside.max(near);
        }
        // The far corner on each edge line, reached along the straight part.
        let corner = if across_step > 0 { far_edge } else { near_edge };
        for line in [band0 as isize, band1 as isize - 1] {
            let k = (line - band) * band_step;
            if k < near || k > far || k >= best {
                continue;
            }
            let ahead = (corner - (across + k * across_step)) * across_step;
            if ahead > 0 && ahead as usize <= reach(k) {
                best = k;
            }
        }
    }
    best
}

/// `(a, b)` in ascending order.
fn ordered(a: isize, b: isize) -> (isize, isize) {
    (a.min(b), a.max(b))
}

/// The steps `k` in `1..=last` at which a walk from coordinate `from` by `step` (1 or -1) per
/// step lies in `low..=high`, as the nearest and the farthest, if any.
fn steps_in(
    from: isize,
    step: isize,
    low: isize,
    high: isize,
    last: isize,
) -> Option<(isize, isize)> {
    let (a, b) = ((low - from) * step, (high - from) * step);
    let (near, far) = (a.min(b).max(1), a.max(b).min(last));
    (near <= far).then_some((near, far))
}
