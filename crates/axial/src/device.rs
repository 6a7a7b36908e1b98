//! Devices in the type: operands share one, and moving between them is explicit.

use axial_core::{Device, Storage};

/// Two tensors on the same device. Implemented only for `D` and itself, so an
/// op between a `Cpu` tensor and one elsewhere is a compile error.
///
/// # Example
/// ```
/// use axial::{Cpu, SameDevice};
/// fn same<D2: SameDevice<Cpu>>() {}
/// same::<Cpu>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot combine a tensor on `{Self}` with a tensor on `{D}`",
    label = "this tensor is on `{Self}`",
    note = "move one of them first with `.to_device(&device)` or `.to_cpu()`"
)]
pub trait SameDevice<D: Device>: Device {
    /// The storage, seen as on `D` (it is).
    fn on_same(storage: &Storage<Self>) -> &Storage<D>;
}

impl<D: Device> SameDevice<D> for D {
    fn on_same(storage: &Storage<D>) -> &Storage<D> {
        storage
    }
}
