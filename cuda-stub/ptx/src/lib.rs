//! A PTX executor: runs the kernels of a PTX module on the CPU as the PTX
//! ISA defines them, for testing CUDA code on machines without a GPU.
//!
//! It is a test tool, not a GPU: [`Module::parse`] reads the PTX that nvcc
//! writes (every module of `axial-cuda` and the instructions its kernels
//! use), [`run`] executes one launch of a kernel over [`Memory`] with
//! 32-lane warps whose diverged lanes reconverge lowest program counter
//! first, the state spaces (global, shared static and dynamic, local,
//! parameters), `bar.sync`, `shfl.sync` and `vote.sync` with their member
//! masks, atomics, special registers, predicates, every conversion with its
//! rounding mode (f16 and bf16 included) and the `.approx`/`.ftz` forms
//! (computed to the correctly rounded value, within every error bound the
//! ISA documents). Blocks run one after another, so a run is deterministic.
//!
//! As it runs it checks what a GPU would not report: an access outside
//! every allocation or outside its state space, a misaligned access, a read
//! of shared memory no thread wrote, two threads touching the same byte
//! between barriers with one of them writing (not through an atomic), a
//! barrier or shuffle that part of its lanes miss. The first such fault
//! stops the launch with an error naming the kernel, the block, the thread
//! and the PTX line ([`Fault`]).
//!
//! # Example
//! ```
//! use axial_ptx::{HostMemory, Launch, Module, Options, run};
//! let ptx = r#"
//! .version 7.8
//! .target sm_80
//! .address_size 64
//! .visible .entry twice(.param .u64 out, .param .u32 n)
//! {
//!     .reg .pred %p<2>;
//!     .reg .b32 %r<4>;
//!     .reg .b64 %rd<4>;
//!     ld.param.u64 %rd1, [out];
//!     ld.param.u32 %r1, [n];
//!     mov.u32 %r2, %tid.x;
//!     setp.ge.u32 %p1, %r2, %r1;
//!     @%p1 bra DONE;
//!     mul.wide.u32 %rd2, %r2, 4;
//!     add.s64 %rd3, %rd1, %rd2;
//!     shl.b32 %r3, %r2, 1;
//!     st.global.u32 [%rd3], %r3;
//! DONE:
//!     ret;
//! }
//! "#;
//! let module = Module::parse(ptx)?;
//! let kernel = module.kernel("twice")?;
//! let mut memory = HostMemory::default();
//! let out = memory.alloc(4 * 40);
//! let mut params = out.to_le_bytes().to_vec();
//! params.extend(40u32.to_le_bytes());
//! let launch = Launch { grid: [1, 1, 1], block: [64, 1, 1], dynamic_shared: 0, params: &params };
//! run(&kernel, &launch, &memory, &Options::default())?;
//! assert_eq!(memory.read(out + 4 * 7, 4), 14u32.to_le_bytes());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod ast;
mod check;
mod decode;
mod error;
mod exec;
mod ir;
mod lanes;
mod lex;
mod memory;
mod num;
mod parse;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub use decode::{Kernel, Param};
pub use error::{Fault, FaultKind, ParseError};
pub use exec::{LOCAL_WINDOW, Launch, Options, SHARED_WINDOW, Stats, run};
pub use memory::{HostMemory, Memory, Region};

/// A module-scope variable in device memory (`.global` or `.const`): the
/// driver allocates it when it loads the module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalVar {
    /// Its name.
    pub name: String,
    /// Bytes.
    pub size: u64,
    /// Alignment in bytes.
    pub align: u64,
    /// Its initial bytes (zeros past the initializer).
    pub init: Vec<u8>,
}

/// A parsed PTX module whose kernels are decoded on first use.
#[derive(Debug)]
pub struct Module {
    ast: ast::Module,
    /// Indices in `ast.vars` of the device-memory variables, in order.
    global_index: Vec<usize>,
    /// Their device addresses, by index in `ast.vars`.
    addresses: Vec<u64>,
    kernels: Mutex<HashMap<String, Arc<Kernel>>>,
}

impl Module {
    /// Parses PTX text.
    ///
    /// # Errors
    /// Text that is not PTX, with its line.
    ///
    /// ```
    /// let m = axial_ptx::Module::parse(".version 7.8\n.target sm_80\n.address_size 64\n")?;
    /// assert_eq!(m.kernel_names().count(), 0);
    /// # Ok::<(), axial_ptx::ParseError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Module, ParseError> {
        let ast = parse::module(text)?;
        let global_index = ast
            .vars
            .iter()
            .enumerate()
            .filter(|(_, v)| {
                matches!(v.space, ast::Space::Global | ast::Space::Const) && !v.external
            })
            .map(|(k, _)| k)
            .collect();
        let addresses = vec![0; ast.vars.len()];
        Ok(Module {
            ast,
            global_index,
            addresses,
            kernels: Mutex::new(HashMap::new()),
        })
    }

    /// The PTX ISA version (`.version 9.0` is `(9, 0)`).
    pub fn version(&self) -> (u32, u32) {
        self.ast.version
    }

    /// The target (`sm_80`).
    pub fn target(&self) -> &str {
        &self.ast.target
    }

    /// The names of the kernels (`.entry`), in order.
    pub fn kernel_names(&self) -> impl Iterator<Item = &str> {
        self.ast
            .functions
            .iter()
            .filter(|f| f.entry && f.body.is_some())
            .map(|f| f.name.as_str())
    }

    /// The variables that live in device memory, to allocate before any
    /// kernel runs ([`Module::set_global_addresses`]).
    pub fn globals(&self) -> Vec<GlobalVar> {
        self.global_index
            .iter()
            .map(|&k| {
                let v = &self.ast.vars[k];
                let size = v.size();
                let elem = v.elem_size() as usize;
                let mut init = Vec::with_capacity(size as usize);
                for lit in &v.init {
                    let bits = match *lit {
                        ast::Literal::Int(b) | ast::Literal::F64(b) => b,
                        ast::Literal::F32(b) => b as u64,
                    };
                    init.extend_from_slice(&bits.to_le_bytes()[..elem.min(8)]);
                }
                init.resize(size as usize, 0);
                GlobalVar {
                    name: v.name.clone(),
                    size,
                    align: v.alignment(),
                    init,
                }
            })
            .collect()
    }

    /// The device addresses of [`Module::globals`], in their order.
    ///
    /// # Panics
    /// Not one address per variable.
    pub fn set_global_addresses(&mut self, addresses: &[u64]) {
        assert_eq!(
            addresses.len(),
            self.global_index.len(),
            "one address per variable"
        );
        for (&k, &a) in self.global_index.iter().zip(addresses) {
            self.addresses[k] = a;
        }
        self.kernels
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
    }

    /// Kernel `name`, decoded (once).
    ///
    /// # Errors
    /// There is no such kernel, or it uses an instruction the executor does
    /// not implement (named with its line).
    pub fn kernel(&self, name: &str) -> Result<Arc<Kernel>, ParseError> {
        let mut cache = self
            .kernels
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(k) = cache.get(name) {
            return Ok(k.clone());
        }
        let entry = self
            .ast
            .functions
            .iter()
            .position(|f| f.entry && f.name == name && f.body.is_some())
            .ok_or_else(|| ParseError {
                line: 0,
                message: format!("no kernel `{name}` in the module"),
            })?;
        let k = Arc::new(decode::kernel(&self.ast, &self.addresses, entry)?);
        cache.insert(name.to_string(), k.clone());
        Ok(k)
    }
}
