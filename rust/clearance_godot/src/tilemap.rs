//! The TileMapLayer import: the terrain grid a layer's tiles describe, and where the layer
//! draws its tiles.
#![forbid(unsafe_code)]

use crate::convert::{inverse_of, region_of, terrain_id, vector_of};
use crate::frame::{is_tile_size, CellShape, GridFrame, OffsetAxis, TileLayout, TileShape};
use clearance_core::{Region, TerrainGrid, TerrainId};
use godot::classes::{tile_set, TileMapLayer, TileSet};
use godot::prelude::*;
use std::collections::HashMap;

/// The terrain grid a TileMapLayer describes, or why it describes none: the layer's used
/// rectangle, each cell taking the int in its tile's custom data layer `terrain_layer_name`,
/// and `empty_cell_terrain` where there is no tile.
///
/// The cells come from the layer's `tile_map_data` in one engine call, and each kind of tile
/// (source, atlas coordinates, alternative) is looked up once, at the first cell that holds
/// it in row order: so the answer, and the cell an error names, are those of a lookup per
/// cell, which the import falls back to where that data cannot place every cell.
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
    let lookup = |coords| tile_terrain(layer, coords, data_layer, terrain_layer_name);
    let data = match cell_kinds(layer, region) {
        Some(kinds) => terrain_by_kind(region, &kinds, empty, lookup)?,
        None => terrain_by_cell(layer, region, empty, lookup)?,
    };
    TerrainGrid::from_bytes(region, &data).map_err(|error| error.to_string())
}

/// The terrain of each cell of `region`, row by row, looked up cell by cell.
fn terrain_by_cell(
    layer: &Gd<TileMapLayer>,
    region: Region,
    empty: TerrainId,
    mut lookup: impl FnMut(Vector2i) -> Result<TerrainId, String>,
) -> Result<Vec<TerrainId>, String> {
    let mut data = Vec::with_capacity(region.area() as usize);
    for cell in region.cells() {
        let coords = vector_of(cell);
        data.push(if layer.get_cell_source_id(coords) < 0 {
            empty
        } else {
            lookup(coords)?
        });
    }
    Ok(data)
}

/// The terrain of each cell of `region`, row by row, from the kinds of tile the cells hold:
/// each kind looked up at its first cell.
fn terrain_by_kind(
    region: Region,
    kinds: &CellKinds,
    empty: TerrainId,
    mut lookup: impl FnMut(Vector2i) -> Result<TerrainId, String>,
) -> Result<Vec<TerrainId>, String> {
    let mut terrain_of_kind: Vec<Option<TerrainId>> = vec![None; kinds.count];
    let mut data = Vec::with_capacity(kinds.by_cell.len());
    for (cell, &kind) in region.cells().zip(&kinds.by_cell) {
        data.push(match kind {
            NO_TILE => empty,
            kind => match terrain_of_kind[kind as usize] {
                Some(terrain) => terrain,
                None => {
                    let terrain = lookup(vector_of(cell))?;
                    terrain_of_kind[kind as usize] = Some(terrain);
                    terrain
                }
            },
        });
    }
    Ok(data)
}

/// Which kind of tile each cell of a region holds, row by row.
struct CellKinds {
    /// Per cell, an index among the kinds, or [`NO_TILE`].
    by_cell: Vec<u32>,
    /// The number of kinds.
    count: usize,
}

/// A cell without a tile, in [`CellKinds::by_cell`].
const NO_TILE: u32 = u32::MAX;

/// The bytes of one cell in a layer's `tile_map_data`, after the 2-byte format number: x, y,
/// source id, atlas x, atlas y and alternative, each 16 bits, little-endian (Godot's
/// `TileMapLayer::get_tile_map_data_as_array`, format 0; the form a scene file saves a layer
/// in). A layer keeps a cell's source, atlas coordinates and alternative in 16 signed bits
/// itself (`TileMapCell`), so those fields are exact; its cells' positions it keeps in full,
/// so x and y are exact only from -32,768 to 32,767.
const CELL_BYTES: usize = 12;

/// The kinds of tile in `region` (the layer's used rectangle), read from the layer's
/// `tile_map_data`; `None` where that data cannot place every cell (the rectangle reaches past
/// -32,768 to 32,767) or its format is not one this reads.
fn cell_kinds(layer: &Gd<TileMapLayer>, region: Region) -> Option<CellKinds> {
    let fits_16_bits = |first: i32, count: i32| {
        let last = i64::from(first) + i64::from(count) - 1;
        i64::from(first) >= i64::from(i16::MIN) && last <= i64::from(i16::MAX)
    };
    if !(fits_16_bits(region.x, region.width) && fits_16_bits(region.y, region.height)) {
        return None;
    }
    let packed = layer.get_tile_map_data_as_array();
    let bytes = packed.as_slice();
    let (format, cells) = bytes.split_at_checked(2)?;
    if format != [0, 0] || cells.len() % CELL_BYTES != 0 {
        return None;
    }
    let u16_at = |cell: &[u8], at: usize| u16::from_le_bytes([cell[at], cell[at + 1]]);
    let width = region.width as usize;
    let mut kinds = CellKinds {
        by_cell: vec![NO_TILE; region.area() as usize],
        count: 0,
    };
    let mut kind_of_tile: HashMap<[u16; 4], u32> = HashMap::new();
    // Neighbouring cells mostly hold the same tile: the last one found is checked first.
    let mut last: Option<([u16; 4], u32)> = None;
    for cell in cells.chunks_exact(CELL_BYTES) {
        let x = i32::from(u16_at(cell, 0) as i16) - region.x;
        let y = i32::from(u16_at(cell, 2) as i16) - region.y;
        let tile = [
            u16_at(cell, 4),
            u16_at(cell, 6),
            u16_at(cell, 8),
            u16_at(cell, 10),
        ];
        // A negative source is no tile, as `get_cell_source_id` says; such cells may lie
        // anywhere (an erased cell waits in the data until the layer's next update). Cells
        // with a source lie in the used rectangle: the bounds only guard the index.
        let no_tile = (tile[0] as i16) < 0;
        if no_tile || x < 0 || y < 0 || x >= region.width || y >= region.height {
            continue;
        }
        let kind = match last {
            Some((last_tile, kind)) if last_tile == tile => kind,
            _ => {
                let next = kind_of_tile.len() as u32;
                let kind = *kind_of_tile.entry(tile).or_insert(next);
                last = Some((tile, kind));
                kind
            }
        };
        kinds.by_cell[y as usize * width + x as usize] = kind;
    }
    kinds.count = kind_of_tile.len();
    Some(kinds)
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
