//! `boardlab._boardlab._VectorEnv`: many games stepped together in Rust ([`boardlab_vector`]),
//! writing straight into NumPy arrays, with the GIL released while the games move. The Python
//! classes of `boardlab.vector` own the arrays and wrap this one.

use crate::{kind_of, options_of, BoardlabError, BotError, IllegalMoveError, OptionError};
use boardlab_ai::BotSpec;
use boardlab_core::Seat;
use boardlab_vector::{
    AgentSeats, Config, Leaves, Opponent, Outputs, SearchConfig, VecEnv, VecError,
};
use numpy::{PyArray1, PyArrayMethods, PyReadwriteArrayDyn};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

fn vec_error(e: VecError) -> PyErr {
    match e {
        VecError::Action { .. } => IllegalMoveError::new_err(e.to_string()),
        VecError::Bot { .. } => BotError::new_err(e.to_string()),
        VecError::Config(_) => OptionError::new_err(e.to_string()),
        VecError::Shape(_) | VecError::Evaluator(_) => BoardlabError::new_err(e.to_string()),
    }
}

fn slice_mut<'a, T: numpy::Element>(
    name: &str,
    array: &'a mut PyReadwriteArrayDyn<'_, T>,
) -> PyResult<&'a mut [T]> {
    array
        .as_slice_mut()
        .map_err(|_| BoardlabError::new_err(format!("{name} must be a C-contiguous array")))
}

/// The arrays of a `boardlab.vector.Batch`, read from its attributes.
#[derive(FromPyObject)]
pub struct BatchArrays<'py> {
    observation: PyReadwriteArrayDyn<'py, f32>,
    action_mask: PyReadwriteArrayDyn<'py, bool>,
    /// The mask array itself, to tell whether it is the one last written.
    #[pyo3(attribute("action_mask"))]
    mask_object: Bound<'py, PyAny>,
    current_player: PyReadwriteArrayDyn<'py, i32>,
    rewards: PyReadwriteArrayDyn<'py, f32>,
    terminated: PyReadwriteArrayDyn<'py, bool>,
    truncated: PyReadwriteArrayDyn<'py, bool>,
}

impl BatchArrays<'_> {
    fn outputs<'a>(
        &'a mut self,
        mask_is_current: bool,
        final_observation: Option<&'a mut [f32]>,
    ) -> PyResult<Outputs<'a>> {
        Ok(Outputs {
            observation: slice_mut("observation", &mut self.observation)?,
            action_mask: slice_mut("action_mask", &mut self.action_mask)?,
            mask_is_current,
            current_player: slice_mut("current_player", &mut self.current_player)?,
            rewards: slice_mut("rewards", &mut self.rewards)?,
            terminated: slice_mut("terminated", &mut self.terminated)?,
            truncated: slice_mut("truncated", &mut self.truncated)?,
            final_observation,
        })
    }
}

/// Many games of one kind stepped together; see `boardlab.vector`.
#[pyclass(module = "boardlab", name = "_VectorEnv")]
#[derive(Debug)]
pub struct PyVecEnv {
    env: VecEnv,
    /// The mask array that holds exactly the legal ids of every env's position, if the last
    /// write went to an array the caller vouched for (`trusted`).
    current_mask: Option<Py<PyAny>>,
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(signature = (game, num_envs, options=None, seed=0, num_threads=1, max_moves=None, bot=None, seat=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &str,
        num_envs: usize,
        options: Option<&Bound<'_, PyAny>>,
        seed: u64,
        num_threads: usize,
        max_moves: Option<u32>,
        bot: Option<&str>,
        seat: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let kind = kind_of(game)?;
        let options = options_of(kind, options)?;
        let opponent = match bot {
            None => None,
            Some(spec) => Some(Opponent {
                bot: spec
                    .parse::<BotSpec>()
                    .map_err(|e| BotError::new_err(e.to_string()))?,
                seats: seats_of(seat)?,
            }),
        };
        let config = Config {
            kind,
            options,
            num_envs,
            seed,
            threads: num_threads,
            max_moves,
            opponent,
        };
        let env = py.detach(|| VecEnv::new(config)).map_err(vec_error)?;
        Ok(PyVecEnv {
            env,
            current_mask: None,
        })
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.env.num_envs()
    }

    #[getter]
    fn action_count(&self) -> usize {
        self.env.action_count()
    }

    #[getter]
    fn planes_shape(&self) -> (usize, usize, usize) {
        let [c, h, w] = self.env.planes_shape();
        (c, h, w)
    }

    /// The agent's seat per env against a bot (a list), or None.
    #[getter]
    fn agent_seats(&self) -> Option<Vec<usize>> {
        self.env
            .agent_seats()
            .map(|s| s.iter().map(|seat| seat.index()).collect())
    }

    /// Env `index`'s position text (for checks and display).
    fn position(&self, index: usize) -> PyResult<String> {
        self.env
            .game(index)
            .map(|g| g.position_text())
            .ok_or_else(|| BoardlabError::new_err(format!("there is no env {index}")))
    }

    /// Starts every env's first game again and writes `batch` (a `boardlab.vector.Batch`).
    #[pyo3(signature = (seed, batch, trusted))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seed: Option<u64>,
        mut batch: BatchArrays<'_>,
        trusted: bool,
    ) -> PyResult<()> {
        let out = batch.outputs(false, None)?;
        let env = &mut self.env;
        let result = py.detach(|| env.reset(seed, out));
        self.after(result, &batch.mask_object, trusted)
    }

    /// Plays `actions` and writes `batch`; `trusted` says `batch` is the environment's own
    /// (read-only to its users), whose mask may then be cleared id by id.
    #[pyo3(signature = (actions, batch, final_observation, trusted))]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
        mut batch: BatchArrays<'_>,
        final_observation: Option<PyReadwriteArrayDyn<'_, f32>>,
        trusted: bool,
    ) -> PyResult<()> {
        let actions = actions_of(py, actions)?;
        let actions = actions.readonly();
        let actions = actions
            .as_slice()
            .map_err(|_| BoardlabError::new_err("actions must be a contiguous array"))?;
        let current = trusted
            && self
                .current_mask
                .as_ref()
                .is_some_and(|m| m.bind(py).is(&batch.mask_object));
        let mut last = final_observation;
        let last = match last.as_mut() {
            Some(f) => Some(slice_mut("final_observation", f)?),
            None => None,
        };
        let out = batch.outputs(current, last)?;
        let env = &mut self.env;
        let result = py.detach(|| env.step(actions, out));
        self.after(result, &batch.mask_object, trusted)
    }

    /// A uniformly random legal action per env, as an int64 array.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let out = PyArray1::<i64>::zeros(py, self.env.num_envs(), false);
        {
            let mut w = out.readwrite();
            let slice = w
                .as_slice_mut()
                .map_err(|e| BoardlabError::new_err(e.to_string()))?;
            self.env.sample_actions(slice).map_err(vec_error)?;
        }
        Ok(out)
    }

    /// The batched tree search: `(policy, value, best)` arrays.
    #[pyo3(signature = (simulations, c_puct, seed, noise_alpha, noise_fraction, evaluate=None))]
    #[allow(clippy::too_many_arguments)]
    fn search<'py>(
        &self,
        py: Python<'py>,
        simulations: u32,
        c_puct: f32,
        seed: u64,
        noise_alpha: f32,
        noise_fraction: f32,
        evaluate: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let config = SearchConfig {
            simulations,
            c_puct,
            seed,
            noise_alpha,
            noise_fraction,
        };
        let [c, h, w] = self.env.planes_shape();
        let a = self.env.action_count();
        let env = &self.env;
        let mut raised: Option<PyErr> = None;
        let result = match evaluate {
            None => py.detach(|| env.search(config, None)),
            Some(f) => {
                let mut call = |leaves: Leaves<'_>, priors: &mut [f32], values: &mut [f32]| {
                    Python::attach(|py| {
                        evaluate_batch(py, &f, leaves, [c, h, w], a, priors, values)
                    })
                    .map_err(|e| {
                        let text = e.to_string();
                        raised = Some(e);
                        text
                    })
                };
                py.detach(|| env.search(config, Some(&mut call)))
            }
        };
        let out = match (result, raised) {
            (Err(_), Some(e)) => return Err(e),
            (r, _) => r.map_err(vec_error)?,
        };
        let n = self.env.num_envs();
        let policy = PyArray1::from_vec(py, out.policy).reshape([n, a])?;
        let value = PyArray1::from_vec(py, out.value);
        let best = PyArray1::from_vec(py, out.best);
        PyTuple::new(py, [policy.into_any(), value.into_any(), best.into_any()])
    }
}

impl PyVecEnv {
    /// Records which mask array now holds the envs' legal ids.
    fn after(
        &mut self,
        result: Result<(), VecError>,
        mask: &Bound<'_, PyAny>,
        trusted: bool,
    ) -> PyResult<()> {
        match result {
            Ok(()) => {
                self.current_mask = trusted.then(|| mask.clone().unbind());
                Ok(())
            }
            Err(e @ (VecError::Action { .. } | VecError::Shape(_))) => Err(vec_error(e)),
            Err(e) => {
                self.current_mask = None;
                Err(vec_error(e))
            }
        }
    }
}

fn seats_of(seat: Option<&Bound<'_, PyAny>>) -> PyResult<AgentSeats> {
    let Some(seat) = seat.filter(|s| !s.is_none()) else {
        return Ok(AgentSeats::Fixed(Seat::First));
    };
    if let Ok(text) = seat.extract::<String>() {
        if text == "alternate" {
            return Ok(AgentSeats::Alternate);
        }
    }
    match seat.extract::<i64>() {
        Ok(0) => Ok(AgentSeats::Fixed(Seat::First)),
        Ok(1) => Ok(AgentSeats::Fixed(Seat::Second)),
        _ => Err(BoardlabError::new_err(format!(
            "seat must be 0, 1 or 'alternate', not {seat}"
        ))),
    }
}

/// The actions as a contiguous int64 array (NumPy converts lists and other integer types).
fn actions_of<'py>(
    py: Python<'py>,
    actions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let np = py.import("numpy")?;
    let array = np
        .call_method1("ascontiguousarray", (actions,))
        .map_err(|_| BoardlabError::new_err("actions must be an array of integers"))?;
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(BoardlabError::new_err(format!(
            "actions must be integers, not an array of dtype {}",
            array.getattr("dtype")?
        )));
    }
    let array = array
        .call_method1("astype", ("int64",))?
        .call_method0("ravel")?;
    Ok(array.cast_into::<PyArray1<i64>>()?)
}

/// Calls the Python evaluator on a batch of leaves and copies its answer out.
fn evaluate_batch(
    py: Python<'_>,
    f: &Py<PyAny>,
    leaves: Leaves<'_>,
    [c, h, w]: [usize; 3],
    a: usize,
    priors: &mut [f32],
    values: &mut [f32],
) -> PyResult<()> {
    let n = leaves.count;
    let planes = PyArray1::from_slice(py, leaves.planes).reshape([n, c, h, w])?;
    let masks = PyArray1::from_slice(py, leaves.masks).reshape([n, a])?;
    let answer = f.bind(py).call1((planes, masks))?;
    let (p, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = answer
        .extract()
        .map_err(|_| BoardlabError::new_err("the evaluator must return a pair (policy, value)"))?;
    let np = py.import("numpy")?;
    let as_f32 = |x: &Bound<'_, PyAny>| -> PyResult<Vec<f32>> {
        let arr = np.call_method1("ascontiguousarray", (x, "float32"))?;
        let arr = arr.call_method0("ravel")?.cast_into::<PyArray1<f32>>()?;
        Ok(arr.to_vec()?)
    };
    let (p, v) = (as_f32(&p)?, as_f32(&v)?);
    if p.len() != n * a || v.len() != n {
        return Err(BoardlabError::new_err(format!(
            "the evaluator answered {} priors and {} values for {n} leaves; it must answer a \
             policy of shape ({n}, {a}) and {n} values",
            p.len(),
            v.len()
        )));
    }
    if v.iter().any(|x| !x.is_finite()) {
        return Err(BoardlabError::new_err(
            "the evaluator answered a value that is not finite",
        ));
    }
    priors.copy_from_slice(&p);
    values.copy_from_slice(&v);
    Ok(())
}

/// Adds `_VectorEnv` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVecEnv>()
}
