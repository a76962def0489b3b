//! The debug overlay: the clearance heat map, flow fields, the last movement range, the units'
//! footprints and the last path, each cell drawn as its tile's outline (squares, diamonds,
//! hexagons) by the frame's cell shape.
#![forbid(unsafe_code)]

use super::ClearancePathfinder;
use crate::convert::region_of;
use crate::field::ClearanceFlowField;
use crate::frame::{CellShape, GridFrame, MAX_OUTLINED_SIZE};
use crate::range::ClearanceMovementRange;
use clearance_core::{cost_to_f64, footprint, AgentProfile as CoreProfile, Cell, Region};
use godot::classes::Engine;
use godot::prelude::*;

/// The heat map draws one rectangle per cell; above this many cells it is skipped (and a
/// configuration warning says so) to keep the editor and the game responsive.
const MAX_HEAT_MAP_CELLS: u64 = 65_536;

impl ClearancePathfinder {
    /// Draws the map's outline in the editor, then the overlays that are turned on.
    pub(super) fn draw_overlay(&mut self) {
        if Engine::singleton().is_editor_hint() {
            let outline = self.frame().region_outline(self.map.region());
            let mut base = self.base_mut();
            outline_polygon(
                &mut base,
                &outline,
                Color::from_rgba(1.0, 1.0, 1.0, 0.5),
                1.0,
            );
        }
        if self.debug_draw_clearance {
            self.draw_heat_map();
        }
        if let Some(field) = self.debug_flow_field.clone() {
            self.draw_flow_field(&field.bind());
        }
        if self.debug_draw_last_range {
            if let Some(range) = self.last_range.clone() {
                self.draw_range(&range.bind());
            }
        }
        if self.debug_draw_units {
            self.draw_units();
        }
        if self.debug_draw_last_path && !self.last_path.is_empty() {
            self.draw_last_path();
        }
    }

    /// Tints each anchor `field` reached by its cost and draws a line from the anchor's cell
    /// towards its next anchor's (nothing above `MAX_HEAT_MAP_CELLS`).
    fn draw_flow_field(&mut self, field: &ClearanceFlowField) {
        let Some(built) = field.built() else {
            return;
        };
        let region = built.region();
        if region.area() > MAX_HEAT_MAP_CELLS {
            return;
        }
        let frame = field.frame();
        let largest = built.max_cost().max(f64::MIN_POSITIVE);
        let line_width = (frame.cell_size.x.min(frame.cell_size.y) / 10.0).max(1.0);
        let mut base = self.base_mut();
        for anchor in region.cells() {
            let Some(cost) = built.cost(anchor) else {
                continue;
            };
            let warmth = (cost_to_f64(cost) / largest).clamp(0.0, 1.0);
            let colour = Color::from_hsv((1.0 - warmth) * 0.62, 0.85, 0.95);
            fill_cell(&mut base, &frame, anchor, colour.with_alpha(0.35));
            if let Some(next) = built.next_anchor(anchor) {
                let from = frame.footprint_center(anchor, 1);
                let towards = frame.footprint_center(next, 1);
                let tip = from + (towards - from) * 0.45;
                base.draw_line_ex(from, tip, colour.with_alpha(0.9))
                    .width(line_width)
                    .done();
            }
        }
    }

    /// Tints each anchor in `range` by its cost against the budget and outlines its border
    /// cells (nothing above `MAX_HEAT_MAP_CELLS` cells in range).
    fn draw_range(&mut self, range: &ClearanceMovementRange) {
        let built = range.built();
        let cells = built.cells();
        if cells.len() as u64 > MAX_HEAT_MAP_CELLS {
            return;
        }
        let frame = range.frame();
        let budget = range.get_budget().max(f64::MIN_POSITIVE);
        let line_width = (frame.cell_size.x.min(frame.cell_size.y) / 10.0).max(1.0);
        let border = built.border_cells();
        let mut base = self.base_mut();
        for anchor in cells {
            let cost = built.cost(anchor).map_or(budget, cost_to_f64);
            let warmth = (cost / budget).clamp(0.0, 1.0);
            let colour = Color::from_hsv((1.0 - warmth) * 0.62, 0.85, 0.95);
            fill_cell(&mut base, &frame, anchor, colour.with_alpha(0.4));
        }
        for anchor in border {
            let outline = frame.cell_polygon(anchor);
            outline_polygon(
                &mut base,
                &outline,
                Color::from_rgba(1.0, 1.0, 1.0, 0.8),
                line_width,
            );
        }
    }

    /// Fills and outlines the part on the map of each registered unit's footprint.
    fn draw_units(&mut self) {
        let region = self.map.region();
        let frame = self.frame();
        let footprints: Vec<Vec<Vector2>> = (self.map.occupancy().units().iter())
            .filter_map(|unit| clipped(unit.footprint(), region))
            .flat_map(|square| square_polygons(&frame, square))
            .collect();
        let line_width = (self.cell_size.x.min(self.cell_size.y) / 10.0).max(1.0);
        let mut base = self.base_mut();
        for footprint in footprints {
            fill_polygon(&mut base, &footprint, Color::from_rgba(1.0, 0.45, 0.1, 0.3));
            let colour = Color::from_rgba(1.0, 0.55, 0.15, 0.95);
            outline_polygon(&mut base, &footprint, colour, line_width);
        }
    }

    /// The configuration warnings of the heat map, given the valid resource profiles (those
    /// from code exist only once the game runs).
    pub(super) fn overlay_warnings(&self, resource_profiles: &[CoreProfile]) -> Vec<String> {
        let mut warnings = Vec::new();
        let name = self.debug_profile.to_string();
        if name.is_empty() {
            warnings.push("Debug Overlay: set `debug_profile` to the profile to draw.".to_owned());
        } else if !resource_profiles
            .iter()
            .any(|profile| profile.name() == name)
        {
            warnings.push(format!(
                "Debug Overlay: `debug_profile` '{name}' is not one of the AgentProfile \
                 resources (a profile added from code is drawn when the game runs)."
            ));
        }
        if region_of(self.region).area() > MAX_HEAT_MAP_CELLS {
            warnings.push(format!(
                "Debug Overlay: the clearance heat map is skipped for maps of more than \
                 {MAX_HEAT_MAP_CELLS} cells."
            ));
        }
        warnings
    }

    /// Fills each cell with the colour of its clearance for `debug_profile` (nothing for an
    /// unknown profile or a map above `MAX_HEAT_MAP_CELLS`).
    fn draw_heat_map(&mut self) {
        let region = self.map.region();
        if region.area() > MAX_HEAT_MAP_CELLS {
            return;
        }
        let Some(layer) = self.map.clearance_layer(&self.debug_profile.to_string()) else {
            return;
        };
        let width = region.width.max(1) as usize;
        let frame = self.frame();
        let mut base = self.base_mut();
        for (index, &clearance) in layer.values().iter().enumerate() {
            let cell = Cell::new(
                region.x + (index % width) as i32,
                region.y + (index / width) as i32,
            );
            fill_cell(&mut base, &frame, cell, clearance_colour(clearance));
        }
    }

    /// Outlines the footprints along the last path and draws the line through their centres,
    /// from a green start to a red end; with waypoints (`smoothing`), also the straight lines
    /// through theirs, in amber, with a dot at each.
    fn draw_last_path(&mut self) {
        let size = self.last_agent_size;
        let frame = self.frame();
        // A path's anchors lie on the map, so every footprint exists.
        let footprints: Vec<Vec<Vector2>> = self
            .last_path
            .iter()
            .filter(|&&anchor| footprint(anchor, size).is_some())
            .flat_map(|&anchor| frame.footprint_polygons(anchor, size))
            .collect();
        let centres: PackedVector2Array = self
            .last_path
            .iter()
            .map(|&anchor| frame.footprint_center(anchor, size))
            .collect();
        let waypoints: PackedVector2Array = self
            .last_waypoints
            .iter()
            .map(|&anchor| frame.footprint_center(anchor, size))
            .collect();
        let line_width = (self.cell_size.x.min(self.cell_size.y) / 8.0).max(1.0);
        let mut base = self.base_mut();
        for footprint in footprints {
            outline_polygon(
                &mut base,
                &footprint,
                Color::from_rgba(0.3, 0.85, 1.0, 0.7),
                1.0,
            );
        }
        if centres.len() > 1 {
            base.draw_polyline_ex(&centres, Color::from_rgba(1.0, 1.0, 1.0, 0.95))
                .width(line_width)
                .done();
        }
        let amber = Color::from_rgba(1.0, 0.75, 0.1, 0.95);
        if waypoints.len() > 1 {
            base.draw_polyline_ex(&waypoints, amber)
                .width(line_width)
                .done();
        }
        for &waypoint in waypoints.as_slice() {
            base.draw_circle(waypoint, line_width * 1.5, amber);
        }
        if let (Some(first), Some(last)) = (centres.as_slice().first(), centres.as_slice().last()) {
            base.draw_circle(
                *first,
                line_width * 2.0,
                Color::from_rgba(0.2, 1.0, 0.4, 1.0),
            );
            base.draw_circle(
                *last,
                line_width * 2.0,
                Color::from_rgba(1.0, 0.3, 0.3, 1.0),
            );
        }
    }
}

/// Fills `cell`'s tile: a rectangle for square cells (cheaper), its outline otherwise.
fn fill_cell(base: &mut Gd<Node2D>, frame: &GridFrame, cell: Cell, colour: Color) {
    if frame.shape == CellShape::SQUARE {
        base.draw_rect(frame.rect_of(Region::new(cell.x, cell.y, 1, 1)), colour);
    } else {
        fill_polygon(base, &frame.cell_polygon(cell), colour);
    }
}

/// Draws the closed outline of `polygon`.
fn outline_polygon(base: &mut Gd<Node2D>, polygon: &[Vector2], colour: Color, width: f32) {
    let closed: PackedVector2Array = polygon.iter().chain(polygon.first()).copied().collect();
    base.draw_polyline_ex(&closed, colour).width(width).done();
}

/// Fills the convex `polygon`.
fn fill_polygon(base: &mut Gd<Node2D>, polygon: &[Vector2], colour: Color) {
    base.draw_colored_polygon(&PackedVector2Array::from(polygon), colour);
}

/// The outlines covering the cells of `square` (a footprint, perhaps clipped to the map): one
/// parallelogram where cells tile affinely or the footprint is large, each cell's tile
/// otherwise (as [`GridFrame::footprint_polygons`]).
fn square_polygons(frame: &GridFrame, square: Region) -> Vec<Vec<Vector2>> {
    let largest = i32::from(MAX_OUTLINED_SIZE);
    if frame.shape.is_affine_tiling() || square.width > largest || square.height > largest {
        return vec![frame.region_outline(square)];
    }
    square
        .cells()
        .map(|cell| frame.cell_polygon(cell))
        .collect()
}

/// The cells `square` shares with `region`, if any (a unit's footprint may reach past the
/// map's edge).
fn clipped(square: Region, region: Region) -> Option<Region> {
    let end = |start: i32, length: i32| i64::from(start) + i64::from(length);
    let left = square.x.max(region.x);
    let top = square.y.max(region.y);
    let right = end(square.x, square.width).min(end(region.x, region.width));
    let bottom = end(square.y, square.height).min(end(region.y, region.height));
    let width = i32::try_from(right - i64::from(left)).ok()?;
    let height = i32::try_from(bottom - i64::from(top)).ok()?;
    (width > 0 && height > 0).then(|| Region::new(left, top, width, height))
}

/// Heat-map colour: translucent dark where the profile cannot stand, then red through yellow
/// to green as the clearance grows to 6.
fn clearance_colour(clearance: u8) -> Color {
    if clearance == 0 {
        return Color::from_rgba(0.05, 0.05, 0.08, 0.55);
    }
    let warmth = f64::from(clearance.min(6) - 1) / 5.0;
    Color::from_hsv(warmth / 3.0, 0.85, 0.95).with_alpha(0.4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn footprints_are_clipped_to_the_map() {
        let map = Region::new(0, 0, 10, 6);
        assert_eq!(
            clipped(Region::new(8, 4, 3, 3), map),
            Some(Region::new(8, 4, 2, 2))
        );
        assert_eq!(
            clipped(Region::new(2, 2, 2, 2), map),
            Some(Region::new(2, 2, 2, 2))
        );
        assert_eq!(clipped(Region::new(10, 0, 2, 2), map), None);
        let far = Region::new(i32::MAX - 1, i32::MAX - 1, 2, 2);
        assert_eq!(clipped(far, far), Some(far));
    }
}
