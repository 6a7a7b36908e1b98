//! The driver's result codes, with the names and descriptions the real
//! driver gives them.

/// A `CUresult`.
pub(crate) type Code = u32;

pub(crate) const SUCCESS: Code = 0;
pub(crate) const INVALID_VALUE: Code = 1;
pub(crate) const OUT_OF_MEMORY: Code = 2;
pub(crate) const NOT_INITIALIZED: Code = 3;
pub(crate) const INVALID_DEVICE: Code = 101;
pub(crate) const INVALID_IMAGE: Code = 200;
pub(crate) const INVALID_CONTEXT: Code = 201;
pub(crate) const NO_BINARY_FOR_GPU: Code = 209;
pub(crate) const INVALID_PTX: Code = 218;
pub(crate) const UNSUPPORTED_PTX_VERSION: Code = 222;
pub(crate) const FILE_NOT_FOUND: Code = 301;
pub(crate) const INVALID_HANDLE: Code = 400;
pub(crate) const NOT_FOUND: Code = 500;
pub(crate) const NOT_READY: Code = 600;
pub(crate) const ILLEGAL_ADDRESS: Code = 700;
pub(crate) const LAUNCH_TIMEOUT: Code = 702;
pub(crate) const HOST_MEMORY_ALREADY_REGISTERED: Code = 712;
pub(crate) const HOST_MEMORY_NOT_REGISTERED: Code = 713;
pub(crate) const MISALIGNED_ADDRESS: Code = 716;
pub(crate) const LAUNCH_FAILED: Code = 719;
pub(crate) const NOT_SUPPORTED: Code = 801;

/// The name and description of a code.
pub(crate) fn describe(code: Code) -> Option<(&'static str, &'static str)> {
    Some(match code {
        0 => ("CUDA_SUCCESS", "no error"),
        1 => ("CUDA_ERROR_INVALID_VALUE", "invalid argument"),
        2 => ("CUDA_ERROR_OUT_OF_MEMORY", "out of memory"),
        3 => ("CUDA_ERROR_NOT_INITIALIZED", "initialization error"),
        4 => ("CUDA_ERROR_DEINITIALIZED", "driver shutting down"),
        34 => ("CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library"),
        100 => ("CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"),
        101 => ("CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"),
        200 => ("CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"),
        201 => ("CUDA_ERROR_INVALID_CONTEXT", "invalid device context"),
        209 => (
            "CUDA_ERROR_NO_BINARY_FOR_GPU",
            "no kernel image is available for execution on the device",
        ),
        218 => ("CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"),
        222 => (
            "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
            "the provided PTX was compiled with an unsupported toolchain.",
        ),
        301 => ("CUDA_ERROR_FILE_NOT_FOUND", "file not found"),
        400 => ("CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"),
        500 => ("CUDA_ERROR_NOT_FOUND", "named symbol not found"),
        600 => ("CUDA_ERROR_NOT_READY", "device not ready"),
        700 => (
            "CUDA_ERROR_ILLEGAL_ADDRESS",
            "an illegal memory access was encountered",
        ),
        702 => (
            "CUDA_ERROR_LAUNCH_TIMEOUT",
            "the launch timed out and was terminated",
        ),
        712 => (
            "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
            "part or all of the requested memory range is already mapped",
        ),
        713 => (
            "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
            "pointer does not correspond to a registered memory region",
        ),
        716 => ("CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address"),
        719 => ("CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"),
        801 => ("CUDA_ERROR_NOT_SUPPORTED", "operation not supported"),
        999 => ("CUDA_ERROR_UNKNOWN", "unknown error"),
        _ => return None,
    })
}
