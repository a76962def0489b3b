//! The TileMapLayer import: the terrain grid a layer's tiles describe.
#![forbid(unsafe_code)]

use crate::convert::{region_of, terrain_id};
use clearance_core::{TerrainGrid, TerrainId};
use godot::classes::TileMapLayer;
use godot::prelude::*;

/// The terrain grid a TileMapLayer describes, or why it describes none.
pub fn terrain_from_layer(
    layer: &Gd<TileMapLayer>,
    terrain_layer_name: &GString,
    empty_cell_terrain: i64,
) -> Result<TerrainGrid, String> {
    let used = layer.get_used_rect();
    let region = region_of(used);
    if region.area() == 0 {
        return Err("the layer has no tiles".to_owned());
    }
    region
        .validate_as_map()
        .map_err(|error| format!("the layer's used rectangle: {error}"))?;
    let Some(tile_set) = layer.get_tile_set() else {
        return Err("the layer has no TileSet".to_owned());
    };
    let data_layer = tile_set.get_custom_data_layer_by_name(terrain_layer_name);
    if data_layer < 0 {
        return Err(format!(
            "the layer's TileSet has no custom data layer named '{terrain_layer_name}'"
        ));
    }
    let data_type = tile_set.get_custom_data_layer_type(data_layer);
    if data_type != VariantType::INT {
        return Err(format!(
            "custom data layer '{terrain_layer_name}' holds {data_type:?}, not int"
        ));
    }
    let empty = terrain_id(empty_cell_terrain).unwrap_or(TerrainId::MAX);
    let mut data = Vec::with_capacity(region.area() as usize);
    for y in used.position.y..used.position.y + used.size.y {
        for x in used.position.x..used.position.x + used.size.x {
            let coords = Vector2i::new(x, y);
            if layer.get_cell_source_id(coords) < 0 {
                data.push(empty);
                continue;
            }
            let Some(tile) = layer.get_cell_tile_data(coords) else {
                return Err(format!(
                    "the tile at {coords} has no tile data (is it a scene tile?)"
                ));
            };
            let value = tile.get_custom_data_by_layer_id(data_layer);
            let terrain = value.try_to::<i64>().ok().and_then(terrain_id);
            let Some(terrain) = terrain else {
                return Err(format!(
                    "the tile at {coords} has '{terrain_layer_name}' = {value}, not a terrain id \
                     from 0 to 255"
                ));
            };
            data.push(terrain);
        }
    }
    TerrainGrid::from_bytes(region, &data).map_err(|error| error.to_string())
}
