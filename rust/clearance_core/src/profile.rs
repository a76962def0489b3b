//! Agent profiles: which terrains a unit may enter, and at what cost.

use crate::cost::{MAX_MULTIPLIER, MULTIPLIER_SCALE};
use crate::error::ProfileError;
use crate::terrain::{TerrainId, TerrainSet};

/// The rules one kind of unit moves by: the terrains it may enter and a cost multiplier for each.
///
/// A terrain without a multiplier is impassable for the profile. Multipliers are given as
/// floating-point numbers and stored as fixed-point integers (see [`MULTIPLIER_SCALE`]); NaN,
/// infinities, negative values and values above [`MAX_MULTIPLIER`] are rejected, and 0 is
/// allowed (free movement). Profiles are registered on a [`PathMap`](crate::PathMap) and chosen
/// by name for each query; a query never changes a profile.
///
/// ```
/// use clearance_core::AgentProfile;
///
/// const GROUND: u8 = 0;
/// const ROAD: u8 = 2;
/// const SWAMP: u8 = 3;
///
/// let tank = AgentProfile::new("tank")
///     .with_terrain(GROUND, 1.0)?
///     .with_terrain(ROAD, 0.5)?
///     .with_terrain(SWAMP, 4.0)?;
/// assert_eq!(tank.multiplier(ROAD), Some(0.5));
/// assert_eq!(tank.multiplier(1), None); // walls are impassable
/// assert!(AgentProfile::new("bad").with_terrain(GROUND, f64::NAN).is_err());
/// # Ok::<(), clearance_core::ProfileError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentProfile {
    name: String,
    multipliers: [Option<u32>; 256],
    capability: TerrainSet,
    /// The smallest and the largest of `multipliers`, kept with them: queries read them, and
    /// a scan of 256 entries would cost more than some whole queries.
    lowest: Option<u32>,
    highest: Option<u32>,
}

impl AgentProfile {
    /// A profile called `name` that may enter no terrain yet.
    pub fn new(name: impl Into<String>) -> Self {
        AgentProfile {
            name: name.into(),
            multipliers: [None; 256],
            capability: TerrainSet::EMPTY,
            lowest: None,
            highest: None,
        }
    }

    /// Builder form of [`set_terrain`](Self::set_terrain).
    pub fn with_terrain(
        mut self,
        terrain: TerrainId,
        multiplier: f64,
    ) -> Result<Self, ProfileError> {
        self.set_terrain(terrain, multiplier)?;
        Ok(self)
    }

    /// Lets the profile enter `terrain`, each step onto it costing its length times
    /// `multiplier`. On error the profile is unchanged.
    pub fn set_terrain(&mut self, terrain: TerrainId, multiplier: f64) -> Result<(), ProfileError> {
        self.multipliers[usize::from(terrain)] = Some(fixed_multiplier(terrain, multiplier)?);
        self.capability.insert(terrain);
        self.update_extremes();
        Ok(())
    }

    /// Makes `terrain` impassable for the profile.
    pub fn forbid_terrain(&mut self, terrain: TerrainId) {
        self.multipliers[usize::from(terrain)] = None;
        self.capability.remove(terrain);
        self.update_extremes();
    }

    /// Recomputes the smallest and the largest multiplier after a change.
    fn update_extremes(&mut self) {
        let entered = || self.multipliers.iter().flatten().copied();
        (self.lowest, self.highest) = (entered().min(), entered().max());
    }

    /// The profile's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The multiplier for `terrain` as stored (rounded to 1/1000), or `None` if impassable.
    pub fn multiplier(&self, terrain: TerrainId) -> Option<f64> {
        self.fixed_multiplier(terrain)
            .map(|fixed| f64::from(fixed) / f64::from(MULTIPLIER_SCALE))
    }

    /// The fixed-point multiplier for `terrain` (1.0 = [`MULTIPLIER_SCALE`]), or `None` if
    /// impassable.
    pub fn fixed_multiplier(&self, terrain: TerrainId) -> Option<u32> {
        self.multipliers[usize::from(terrain)]
    }

    /// The terrains the profile may enter: its *capability*. Profiles with equal capabilities
    /// share one clearance layer.
    pub fn capability(&self) -> TerrainSet {
        self.capability
    }

    /// The smallest fixed-point multiplier over the terrains the profile may enter, or `None`
    /// if it may enter none. The search scales its distance heuristic by this value, which keeps
    /// the heuristic admissible when multipliers are below 1.
    pub fn min_fixed_multiplier(&self) -> Option<u32> {
        self.lowest
    }

    /// The largest fixed-point multiplier over the terrains the profile may enter.
    pub fn max_fixed_multiplier(&self) -> Option<u32> {
        self.highest
    }
}

fn fixed_multiplier(terrain: TerrainId, value: f64) -> Result<u32, ProfileError> {
    if !value.is_finite() {
        return Err(ProfileError::NonFiniteMultiplier { terrain, value });
    }
    if value < 0.0 {
        return Err(ProfileError::NegativeMultiplier { terrain, value });
    }
    if value > MAX_MULTIPLIER {
        return Err(ProfileError::MultiplierTooLarge {
            terrain,
            value,
            max: MAX_MULTIPLIER,
        });
    }
    Ok((value * f64::from(MULTIPLIER_SCALE)).round() as u32)
}
