//! A column-major GEMM on host memory in cuBLAS's data and compute types.

use std::ffi::c_int;

use crate::{INVALID_VALUE, NOT_SUPPORTED, Status};

pub(crate) const R_32F: c_int = 0;
pub(crate) const R_64F: c_int = 1;
pub(crate) const R_16F: c_int = 2;
pub(crate) const R_16BF: c_int = 14;
pub(crate) const COMPUTE_32F: c_int = 68;
const COMPUTE_32F_PEDANTIC: c_int = 69;
pub(crate) const COMPUTE_64F: c_int = 70;
const COMPUTE_64F_PEDANTIC: c_int = 71;
const COMPUTE_32F_FAST_16F: c_int = 74;
const COMPUTE_32F_FAST_16BF: c_int = 75;
pub(crate) const COMPUTE_32F_FAST_TF32: c_int = 77;

/// A matrix operand: its address, data type, leading dimension and batch stride.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Matrix {
    ptr: u64,
    ty: c_int,
    ld: c_int,
    stride: i64,
}

impl Matrix {
    pub(crate) fn new(ptr: u64, ty: c_int, ld: c_int, stride: i64) -> Matrix {
        Matrix {
            ptr,
            ty,
            ld,
            stride,
        }
    }

    fn elem(&self) -> u64 {
        match self.ty {
            R_64F => 8,
            R_32F => 4,
            _ => 2,
        }
    }

    /// Element (r, c) of batch `b` as f64 (exact for every data type).
    ///
    /// # Safety
    /// The element lies in host-addressable device memory.
    unsafe fn get(&self, b: i64, r: i64, c: i64) -> f64 {
        let at = self.ptr as i64 + (b * self.stride + r + c * self.ld as i64) * self.elem() as i64;
        // SAFETY: the caller's contract; reads of the data type's size.
        unsafe {
            match self.ty {
                R_64F => (at as *const f64).read_unaligned(),
                R_32F => (at as *const f32).read_unaligned() as f64,
                R_16F => half::f16::from_bits((at as *const u16).read_unaligned()).to_f64(),
                _ => half::bf16::from_bits((at as *const u16).read_unaligned()).to_f64(),
            }
        }
    }

    /// Stores `v` (exact in f64 for f64 outputs, else an f32 value) as
    /// element (r, c) of batch `b`, rounded to nearest even.
    ///
    /// # Safety
    /// As [`Matrix::get`].
    unsafe fn set(&self, b: i64, r: i64, c: i64, v: f64) {
        let at = self.ptr as i64 + (b * self.stride + r + c * self.ld as i64) * self.elem() as i64;
        // SAFETY: the caller's contract.
        unsafe {
            match self.ty {
                R_64F => (at as *mut f64).write_unaligned(v),
                R_32F => (at as *mut f32).write_unaligned(v as f32),
                R_16F => (at as *mut u16).write_unaligned(half::f16::from_f32(v as f32).to_bits()),
                _ => (at as *mut u16).write_unaligned(half::bf16::from_f32(v as f32).to_bits()),
            }
        }
    }

    /// The bytes spanned by `batch` matrices of `rows × cols`.
    fn span(&self, rows: i64, cols: i64, batch: i64) -> Option<(u64, u64)> {
        if rows == 0 || cols == 0 || batch == 0 {
            return None;
        }
        let last = (batch - 1) * self.stride + (cols - 1) * self.ld as i64 + rows;
        Some((self.ptr, last as u64 * self.elem()))
    }
}

/// `C = α·op(A)·op(B) + β·C` over a batch.
#[derive(Debug)]
pub(crate) struct Gemm {
    pub(crate) ta: c_int,
    pub(crate) tb: c_int,
    pub(crate) m: c_int,
    pub(crate) n: c_int,
    pub(crate) k: c_int,
    pub(crate) a: Matrix,
    pub(crate) b: Matrix,
    pub(crate) c: Matrix,
    pub(crate) batch: c_int,
    pub(crate) compute: c_int,
    pub(crate) alpha: f64,
    pub(crate) beta: f64,
}

// SAFETY: the operands are device addresses the job owns until it runs.
unsafe impl Send for Gemm {}

/// Rounds an f32 to TF32 (10 fraction bits, to nearest, ties away), as
/// `cvt.rna.tf32.f32`.
fn tf32(x: f32) -> f32 {
    if !x.is_finite() {
        return x;
    }
    f32::from_bits(x.to_bits().wrapping_add(0x1000) & 0xffff_e000)
}

impl Gemm {
    fn a_rows(&self) -> c_int {
        if self.ta == 0 { self.m } else { self.k }
    }

    fn b_rows(&self) -> c_int {
        if self.tb == 0 { self.k } else { self.n }
    }

    /// The parameters as cuBLAS checks them.
    pub(crate) fn check(&self) -> Result<(), Status> {
        if self.m < 0 || self.n < 0 || self.k < 0 || self.batch < 0 {
            return Err(INVALID_VALUE);
        }
        if !(0..=2).contains(&self.ta) || !(0..=2).contains(&self.tb) {
            return Err(INVALID_VALUE);
        }
        if self.a.ld < self.a_rows().max(1)
            || self.b.ld < self.b_rows().max(1)
            || self.c.ld < self.m.max(1)
        {
            return Err(INVALID_VALUE);
        }
        let ty = self.a.ty;
        if self.b.ty != ty || self.c.ty != ty {
            return Err(NOT_SUPPORTED);
        }
        let ok = match ty {
            R_64F => matches!(self.compute, COMPUTE_64F | COMPUTE_64F_PEDANTIC),
            R_32F => matches!(
                self.compute,
                COMPUTE_32F
                    | COMPUTE_32F_PEDANTIC
                    | COMPUTE_32F_FAST_TF32
                    | COMPUTE_32F_FAST_16F
                    | COMPUTE_32F_FAST_16BF
            ),
            R_16F | R_16BF => matches!(self.compute, COMPUTE_32F | COMPUTE_32F_PEDANTIC),
            _ => false,
        };
        if ok { Ok(()) } else { Err(NOT_SUPPORTED) }
    }

    /// Reads α and β (host scalars of the compute type).
    ///
    /// # Safety
    /// Both point to an f64 for f64 computes, else to an f32.
    pub(crate) unsafe fn scalars(
        &mut self,
        alpha: *const std::ffi::c_void,
        beta: *const std::ffi::c_void,
    ) {
        // SAFETY: the caller's contract.
        unsafe {
            if matches!(self.compute, COMPUTE_64F | COMPUTE_64F_PEDANTIC) {
                self.alpha = alpha.cast::<f64>().read_unaligned();
                self.beta = beta.cast::<f64>().read_unaligned();
            } else {
                self.alpha = alpha.cast::<f32>().read_unaligned() as f64;
                self.beta = beta.cast::<f32>().read_unaligned() as f64;
            }
        }
    }

    /// The device bytes each operand spans (`None`: not read).
    pub(crate) fn ranges(&self) -> [(&'static str, Option<(u64, u64)>); 3] {
        let batch = self.batch as i64;
        let (ac, bc) = (
            if self.ta == 0 { self.k } else { self.m },
            if self.tb == 0 { self.n } else { self.k },
        );
        [
            ("A", self.a.span(self.a_rows() as i64, ac as i64, batch)),
            ("B", self.b.span(self.b_rows() as i64, bc as i64, batch)),
            ("C", self.c.span(self.m as i64, self.n as i64, batch)),
        ]
    }

    /// Computes the product: each element a sum over `k` in order, fused
    /// multiply-adds in the compute precision.
    ///
    /// # Safety
    /// Every element of the operands lies in host-addressable memory.
    pub(crate) unsafe fn run(&self) {
        let wide = self.c.ty == R_64F;
        let tf = self.compute == COMPUTE_32F_FAST_TF32;
        let (alpha32, beta32) = (self.alpha as f32, self.beta as f32);
        for b in 0..self.batch as i64 {
            for j in 0..self.n as i64 {
                for i in 0..self.m as i64 {
                    // SAFETY: the caller's contract covers every element.
                    let pair = |p: i64| unsafe {
                        let x = if self.ta == 0 {
                            self.a.get(b, i, p)
                        } else {
                            self.a.get(b, p, i)
                        };
                        let y = if self.tb == 0 {
                            self.b.get(b, p, j)
                        } else {
                            self.b.get(b, j, p)
                        };
                        (x, y)
                    };
                    let v = if wide {
                        let mut acc = 0f64;
                        for p in 0..self.k as i64 {
                            let (x, y) = pair(p);
                            acc = x.mul_add(y, acc);
                        }
                        let r = self.alpha * acc;
                        if self.beta == 0.0 {
                            r
                        } else {
                            // SAFETY: as above.
                            self.beta.mul_add(unsafe { self.c.get(b, i, j) }, r)
                        }
                    } else {
                        let mut acc = 0f32;
                        for p in 0..self.k as i64 {
                            let (x, y) = pair(p);
                            let (x, y) = (x as f32, y as f32);
                            let (x, y) = if tf { (tf32(x), tf32(y)) } else { (x, y) };
                            acc = x.mul_add(y, acc);
                        }
                        let r = alpha32 * acc;
                        let r = if beta32 == 0.0 {
                            r
                        } else {
                            // SAFETY: as above.
                            beta32.mul_add(unsafe { self.c.get(b, i, j) } as f32, r)
                        };
                        r as f64
                    };
                    // SAFETY: as above.
                    unsafe { self.c.set(b, i, j, v) };
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tf32_keeps_ten_fraction_bits_rounding_to_nearest() {
        assert_eq!(tf32(1.0), 1.0);
        assert_eq!(tf32(1.0 + f32::EPSILON), 1.0);
        assert_eq!(tf32(1.0 + 3.0 * 2f32.powi(-11)), 1.0 + 2f32.powi(-9));
        assert!(tf32(f32::NAN).is_nan());
    }

    #[test]
    fn a_product_of_host_matrices_is_the_column_major_product() {
        // A 2×3 (column-major), B 3×2: C = A·B; C starts as NaN with β = 0.
        let a = [1.0f32, 4.0, 2.0, 5.0, 3.0, 6.0];
        let b = [7.0f32, 9.0, 11.0, 8.0, 10.0, 12.0];
        let mut c = [f32::NAN; 4];
        let g = Gemm {
            ta: 0,
            tb: 0,
            m: 2,
            n: 2,
            k: 3,
            a: Matrix::new(a.as_ptr() as u64, R_32F, 2, 0),
            b: Matrix::new(b.as_ptr() as u64, R_32F, 3, 0),
            c: Matrix::new(c.as_mut_ptr() as u64, R_32F, 2, 0),
            batch: 1,
            compute: COMPUTE_32F,
            alpha: 1.0,
            beta: 0.0,
        };
        assert_eq!(g.check(), Ok(()));
        // SAFETY: the three arrays above hold every element.
        unsafe { g.run() };
        assert_eq!(c, [58.0, 139.0, 64.0, 154.0]);
        assert_eq!(g.ranges()[0].1, Some((a.as_ptr() as u64, 24)));
    }
}
