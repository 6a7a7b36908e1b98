// Two tensors on different devices cannot be combined: by an operator
// (the bound of its impl) or by a method (the bound of its signature).
use axial::prelude::*;
use axial_core::{Device, Result};

axes!(Rows);

/// A stand-in for another device (what the CUDA device will be).
#[derive(Clone, Debug, PartialEq)]
struct Elsewhere;

impl Device for Elsewhere {
    type Buffer = Vec<u8>;
    fn name(&self) -> String {
        "elsewhere".into()
    }
    fn alloc(&self, nbytes: usize) -> Result<Vec<u8>> {
        Ok(vec![0; nbytes])
    }
    fn alloc_zeroed(&self, nbytes: usize) -> Result<Vec<u8>> {
        Ok(vec![0; nbytes])
    }
    fn buffer_len(&self, buffer: &Vec<u8>) -> usize {
        buffer.len()
    }
    fn buffer_addr(&self, buffer: &Vec<u8>) -> usize {
        buffer.as_ptr() as usize
    }
    fn copy_from_host(&self, buffer: &mut Vec<u8>, offset: usize, src: &[u8]) -> Result<()> {
        buffer[offset..offset + src.len()].copy_from_slice(src);
        Ok(())
    }
    fn copy_to_host(&self, buffer: &Vec<u8>, offset: usize, dst: &mut [u8]) -> Result<()> {
        dst.copy_from_slice(&buffer[offset..offset + dst.len()]);
        Ok(())
    }
    fn duplicate(&self, buffer: &Vec<u8>) -> Result<Vec<u8>> {
        Ok(buffer.clone())
    }
}

fn main() {
    let here = Tensor::<f32, shape![Rows: 3]>::zeros();
    let there = here.to_device(&Elsewhere);
    let _ = &here + &there;
    let _ = here.shares_storage_with(&there);
}
