//! The TileMapLayer import: the terrain grid a layer's tiles describe, and where the layer
//! draws its tiles.
#![forbid(unsafe_code)]

use crate::convert::{inverse_of, region_of, terrain_id, vector_of};
use crate::frame::{is_tile_size, CellShape, GridFrame, OffsetAxis, TileLayout, TileShape};
use clearance_core::{Region, TerrainGrid, TerrainId};
use godot::classes::{tile_set, TileMapLayer, TileSet};
use godot::prelude::*;

/// The terrain grid a TileMapLayer describes, or why it describes none: the layer's used
/// rectangle, each cell taking the int in its tile's custom data layer `terrain_layer_name`,
/// and `empty_cell_terrain` where there is no tile.
pub fn terrain_from_layer(
    layer: &Gd<TileMapLayer>,
    terrain_layer_name: &GString,
    empty_cell_terrain: i64,
) -> Result<TerrainGrid, String> {
    let region = used_region(layer)?;
    let Some(tile_set) = layer.get_tile_set() else {
        return Err("the layer has no TileSet".to_owned());
    };
    let data_layer = terrain_data_layer(&tile_set, terrain_layer_name)?;
    let empty = terrain_id(empty_cell_terrain).unwrap_or(TerrainId::MAX);
    let mut data = Vec::with_capacity(region.area() as usize);
    for cell in region.cells() {
        let coords = vector_of(cell);
        let terrain = if layer.get_cell_source_id(coords) < 0 {
            empty
        } else {
            tile_terrain(layer, coords, data_layer, terrain_layer_name)?
        };
        data.push(terrain);
    }
    TerrainGrid::from_bytes(region, &data).map_err(|error| error.to_string())
}

/// The layer's used rectangle, if it holds tiles and can be a map.
fn used_region(layer: &Gd<TileMapLayer>) -> Result<Region, String> {
    let region = region_of(layer.get_used_rect());
    if region.area() == 0 {
        return Err("the layer has no tiles".to_owned());
    }
    region
        .validate_as_map()
        .map_err(|error| format!("the layer's used rectangle: {error}"))?;
    Ok(region)
}

/// The index of the TileSet's custom data layer called `name`, if there is one and it holds
/// ints.
fn terrain_data_layer(tile_set: &Gd<TileSet>, name: &GString) -> Result<i32, String> {
    let data_layer = tile_set.get_custom_data_layer_by_name(name);
    if data_layer < 0 {
        return Err(format!(
            "the layer's TileSet has no custom data layer named '{name}'"
        ));
    }
    let data_type = tile_set.get_custom_data_layer_type(data_layer);
    if data_type != VariantType::INT {
        return Err(format!(
            "custom data layer '{name}' holds {data_type:?}, not int"
        ));
    }
    Ok(data_layer)
}

/// The terrain id the tile at `coords` stores in custom data layer `data_layer` (called
/// `name`).
fn tile_terrain(
    layer: &Gd<TileMapLayer>,
    coords: Vector2i,
    data_layer: i32,
    name: &GString,
) -> Result<TerrainId, String> {
    let Some(tile) = layer.get_cell_tile_data(coords) else {
        return Err(format!(
            "the tile at {coords} has no tile data (is it a scene tile?)"
        ));
    };
    let value = tile.get_custom_data_by_layer_id(data_layer);
    value
        .try_to::<i64>()
        .ok()
        .and_then(terrain_id)
        .ok_or_else(|| {
            format!("the tile at {coords} has '{name}' = {value}, not a terrain id from 0 to 255")
        })
}

/// Where `layer` draws its tiles, in `node`'s local space: its TileSet's layout and tile size,
/// scaled and moved by the layer's transform relative to the node, or why that is no grid
/// frame (no TileSet, an empty tile size, a rotated, skewed or mirrored layer).
pub fn layer_frame(node: &Gd<Node2D>, layer: &Gd<TileMapLayer>) -> Result<GridFrame, String> {
    let Some(tile_set) = layer.get_tile_set() else {
        return Err("the layer has no TileSet".to_owned());
    };
    let tile_size = tile_set.get_tile_size();
    if tile_size.x < 1 || tile_size.y < 1 {
        return Err(format!("the TileSet's tile size {tile_size} is below 1"));
    }
    let Some(to_node) = inverse_of(node.get_global_transform()) else {
        return Err(
            "this node's global transform scales to 0 or is not finite, so no layer can be \
             placed in its space"
                .to_owned(),
        );
    };
    let relative = to_node * layer.get_global_transform();
    let (across, down) = (relative.a, relative.b);
    let aligned = across.y.abs() <= 1e-5 * across.x.abs() && down.x.abs() <= 1e-5 * down.y.abs();
    if !(relative.is_finite() && aligned && across.x > 0.0 && down.y > 0.0) {
        return Err(format!(
            "the layer's transform relative to this node ({relative}) rotates, skews or \
             mirrors it; only moving and scaling are followed"
        ));
    }
    let cell_size = Vector2::new(tile_size.x as f32 * across.x, tile_size.y as f32 * down.y);
    // The `cell_size` property's rule: a huge or tiny scale can break it.
    if !is_tile_size(cell_size) {
        return Err(format!(
            "the layer's scale makes its tiles {cell_size} in this node's space, not finite and \
             above 0"
        ));
    }
    Ok(GridFrame {
        offset: relative.origin,
        cell_size,
        shape: cell_shape_of_tile_set(&tile_set),
    })
}

/// The layout of a TileSet's cells.
fn cell_shape_of_tile_set(tile_set: &Gd<TileSet>) -> CellShape {
    let tile_shape = match tile_set.get_tile_shape() {
        tile_set::TileShape::ISOMETRIC => TileShape::Isometric,
        tile_set::TileShape::HALF_OFFSET_SQUARE => TileShape::HalfOffsetSquare,
        tile_set::TileShape::HEXAGON => TileShape::Hexagon,
        _ => TileShape::Square,
    };
    let layout = match tile_set.get_tile_layout() {
        tile_set::TileLayout::STACKED_OFFSET => TileLayout::StackedOffset,
        tile_set::TileLayout::STAIRS_RIGHT => TileLayout::StairsRight,
        tile_set::TileLayout::STAIRS_DOWN => TileLayout::StairsDown,
        tile_set::TileLayout::DIAMOND_RIGHT => TileLayout::DiamondRight,
        tile_set::TileLayout::DIAMOND_DOWN => TileLayout::DiamondDown,
        _ => TileLayout::Stacked,
    };
    let axis = match tile_set.get_tile_offset_axis() {
        tile_set::TileOffsetAxis::VERTICAL => OffsetAxis::Vertical,
        _ => OffsetAxis::Horizontal,
    };
    CellShape::new(tile_shape, layout, axis)
}
