//! Parameter groups (PyTorch's `param_groups`): runs of consecutive
//! positions of the parameter list, each with its own hyper-parameters.

use std::ops::Range;

use axial_core::{Error, Result};

/// The groups of an optimizer: each one's hyper-parameters and how many
/// positions it covers. One group of no stated length covers every
/// position (an optimizer made with `new`); several cover exactly the sum
/// of their lengths, in order.
#[derive(Clone, Debug)]
pub(crate) struct Groups<C> {
    configs: Vec<C>,
    /// Each group's positions; `None` for the one group of `new`.
    lens: Option<Vec<usize>>,
}

impl<C> Groups<C> {
    /// One group over every position.
    pub(crate) fn one(config: C) -> Self {
        Groups {
            configs: vec![config],
            lens: None,
        }
    }

    /// Groups of these hyper-parameters and lengths, in order.
    pub(crate) fn several(op: &'static str, groups: Vec<(C, usize)>) -> Result<Self> {
        if groups.is_empty() {
            return Err(Error::invalid(op, "optimizer got an empty parameter list"));
        }
        let (configs, lens) = groups.into_iter().unzip();
        Ok(Groups {
            configs,
            lens: Some(lens),
        })
    }

    /// How many groups.
    pub(crate) fn len(&self) -> usize {
        self.configs.len()
    }

    /// The hyper-parameters of group `k`.
    pub(crate) fn config(&self, k: usize) -> Option<&C> {
        self.configs.get(k)
    }

    /// Every group's hyper-parameters.
    pub(crate) fn configs_ref(&self) -> &[C] {
        &self.configs
    }

    /// Every group's hyper-parameters, to change.
    pub(crate) fn configs_mut(&mut self) -> &mut [C] {
        &mut self.configs
    }

    /// The positions of group `k`, given `positions` in all (the last
    /// step's list, for the one group of `new`).
    pub(crate) fn range(&self, k: usize, positions: usize) -> Range<usize> {
        match &self.lens {
            None => 0..positions,
            Some(lens) => {
                let start = lens[..k].iter().sum();
                start..start + lens[k]
            }
        }
    }

    /// The hyper-parameters of each position of a list of `n`.
    ///
    /// # Errors
    /// Several groups that do not cover exactly `n` positions.
    pub(crate) fn per_position(&self, op: &'static str, n: usize) -> Result<Vec<&C>> {
        match &self.lens {
            None => Ok(vec![&self.configs[0]; n]),
            Some(lens) => {
                let total: usize = lens.iter().sum();
                if total != n {
                    return Err(Error::invalid(
                        op,
                        format!(
                            "the parameter groups hold {total} parameters ({lens:?}), but the step was given {n}: pass every group's parameters, in order"
                        ),
                    ));
                }
                Ok(self
                    .configs
                    .iter()
                    .zip(lens)
                    .flat_map(|(c, &len)| std::iter::repeat_n(c, len))
                    .collect())
            }
        }
    }
}
