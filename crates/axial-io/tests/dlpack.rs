//! DLPack export and import: layouts kept, memory shared both ways and kept
//! alive until the last user, flags honoured, refusals as values.
#![cfg(feature = "dlpack")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axial_core::storage::KeepAlive;
use axial_core::{DType, Layout, RawTensor, Storage, UnaryOp};
use axial_io::dlpack::{copy_from_dlpack, export, export_view, from_dlpack, to_dlpack};
use dlpark::ffi::{
    DLDataType, DLDataTypeCode, DLDevice, DLManagedTensor, DLManagedTensorVersioned,
};
use dlpark::metadata::Dynamic;
use dlpark::{DlpackFlags, Managed, ManagedTensorBase};
use proptest::prelude::*;

/// Counts how often its memory was released.
struct Tracked {
    _data: Vec<f32>,
    drops: Arc<AtomicUsize>,
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.drops.fetch_add(1, Ordering::SeqCst);
    }
}

/// A storage of `values` whose release is counted.
fn tracked(values: Vec<f32>) -> (Storage, Arc<AtomicUsize>) {
    let drops = Arc::new(AtomicUsize::new(0));
    let mut data = values;
    let (ptr, nbytes) = (data.as_mut_ptr().cast::<u8>(), data.len() * 4);
    let owner = KeepAlive::new(Tracked {
        _data: data,
        drops: Arc::clone(&drops),
    });
    // SAFETY: the Vec's block lives in the owner and is used through this storage only.
    (
        unsafe { Storage::from_owner(ptr, nbytes, owner, true) },
        drops,
    )
}

/// A managed tensor another library made: `data` owned by its context.
fn foreign<M: ManagedTensorBase>(
    data: Vec<u8>,
    dtype: DLDataType,
    shape: &[i64],
    strides: &[i64],
    byte_offset: u64,
    device: DLDevice,
    flags: DlpackFlags,
) -> Managed<M> {
    let mut data = data;
    let ptr = data.as_mut_ptr();
    let mut init = Dynamic::new(shape.to_vec(), strides.to_vec())
        .prepare_as::<M>()
        .unwrap()
        .initialize(Box::new(data));
    init.set_data(ptr.cast())
        .set_dtype(dtype)
        .set_device(device)
        .set_byte_offset(byte_offset);
    // SAFETY: only READ_ONLY or nothing is set.
    unsafe { init.set_flags_unchecked(flags) };
    // SAFETY: the Vec lives in the context; the callers' layouts fit in it.
    unsafe { init.finish() }
}

/// A one-element foreign tensor of `nbytes` zero bytes.
fn one(nbytes: usize, dtype: DLDataType, device: DLDevice) -> Managed<DLManagedTensorVersioned> {
    foreign(
        vec![0; nbytes],
        dtype,
        &[1],
        &[1],
        0,
        device,
        DlpackFlags::empty(),
    )
}

fn f32_dtype() -> DLDataType {
    DLDataType::scalar(DLDataTypeCode::FLOAT, 32)
}

fn layouts() -> impl Strategy<Value = (Layout, usize)> {
    (0usize..=4)
        .prop_flat_map(|rank| {
            (
                prop::collection::vec(1usize..=4, rank),
                prop::collection::vec(0isize..=6, rank),
                0usize..=4,
            )
        })
        .prop_map(|(shape, strides, offset)| {
            let layout = Layout::from_parts(&shape, &strides, offset);
            let len = layout.required_len();
            (layout, len)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn exports_keep_shape_strides_and_address((layout, len) in layouts()) {
        let values: Vec<f32> = (0..len).map(|i| i as f32).collect();
        let mut x = RawTensor::from_parts(Storage::from_slice(&values), layout.clone(), DType::F32).unwrap();
        let capsule = to_dlpack(&mut x).unwrap();
        let d = capsule.validate().unwrap();
        let shape: Vec<i64> = layout.shape().iter().map(|&n| n as i64).collect();
        let strides: Vec<i64> = layout.strides().iter().map(|&s| s as i64).collect();
        prop_assert_eq!(d.shape(), &shape[..]);
        // A 0-d tensor has no strides to carry (DLPack allows NULL for ndim 0).
        prop_assert_eq!(d.strides().unwrap_or(&[]), &strides[..]);
        prop_assert_eq!((d.data_ptr() as usize, d.byte_offset()), (x.view().data_ptr(), 0));
        let read_only = capsule.flags().contains(DlpackFlags::READ_ONLY);
        prop_assert_eq!(read_only, !layout.is_non_overlapping());
        let back = from_dlpack(capsule).unwrap();
        let v = back.view();
        prop_assert_eq!(v.shape(), layout.shape());
        prop_assert_eq!(v.strides(), layout.strides());
        prop_assert_eq!(back.view().data_ptr(), x.view().data_ptr());
        prop_assert_eq!(back.is_read_only(), read_only);
        prop_assert_eq!(back.view().to_vec::<f32>().unwrap(), x.view().to_vec::<f32>().unwrap());
    }
}

#[test]
fn memory_lives_until_the_last_user_lets_go() {
    let (storage, drops) = tracked(vec![1.0, 2.0, 3.0]);
    let mut x = RawTensor::from_storage(storage, &[3], DType::F32).unwrap();
    let capsule = to_dlpack(&mut x).unwrap();
    drop(x);
    assert_eq!(
        drops.load(Ordering::SeqCst),
        0,
        "the consumer still holds it"
    );
    let imported = from_dlpack(capsule).unwrap();
    assert_eq!(
        imported.view().to_vec::<f32>().unwrap(),
        vec![1.0, 2.0, 3.0]
    );
    drop(imported); // the deleter runs, and the last handle goes
    assert_eq!(drops.load(Ordering::SeqCst), 1);
}

#[test]
fn memory_axial_allocated_is_freed_after_both_sides_drop() {
    let mut x = RawTensor::arange(0.0, 4.0, 1.0, DType::F32).unwrap();
    let capsule = to_dlpack(&mut x).unwrap();
    let owner = x.storage().owner().unwrap();
    drop(capsule);
    assert!(!owner.is_unique(), "the tensor still holds it");
    drop(x);
    assert!(owner.is_unique());
}

#[test]
fn writes_show_on_both_sides() {
    let mut x = RawTensor::zeros(&[2, 3], DType::F32).unwrap();
    let mut y = from_dlpack(to_dlpack(&mut x).unwrap()).unwrap();
    y.view_mut().unwrap().unary_(UnaryOp::Exp).unwrap();
    assert_eq!(x.to_vec::<f32>().unwrap(), vec![1.0; 6]);
    x.view_mut()
        .select(0, 1)
        .unwrap()
        .fill_(5.0.into())
        .unwrap();
    assert_eq!(
        y.view().to_vec::<f32>().unwrap(),
        vec![1.0, 1.0, 1.0, 5.0, 5.0, 5.0]
    );
}

#[test]
fn read_only_exports_and_imports() {
    use axial::prelude::*;
    let mut m = Tensor::<f32, shape![2, 2]>::arange();
    let _shared = axial_io::dlpack::export_tensor(&mut m).unwrap();
    let capsule = export_view(&m.as_view().t()).unwrap();
    assert_eq!(capsule.flags(), DlpackFlags::READ_ONLY);
    let mut x = from_dlpack(capsule).unwrap();
    assert!(x.is_read_only());
    assert!(
        x.view_mut()
            .err()
            .unwrap()
            .to_string()
            .contains("read-only")
    );
    assert_eq!(x.view().to_vec::<f32>().unwrap(), vec![0.0, 2.0, 1.0, 3.0]);
    assert!(x.into_raw().is_err());
    // The legacy ABI cannot say read-only: refused, not silently writable.
    let mut s = Storage::from_slice(&[1u8]);
    let legacy = export::<DLManagedTensor>(&mut s, &Layout::contiguous(&[1]), DType::U8, true);
    assert!(
        legacy
            .err()
            .unwrap()
            .to_string()
            .contains("legacy DLPack ABI")
    );
}

#[test]
fn byte_offsets_become_storage_offsets() {
    let data: Vec<u8> = (0..8).flat_map(|i| (i as f32).to_ne_bytes()).collect();
    let capsule = foreign::<DLManagedTensorVersioned>(
        data,
        f32_dtype(),
        &[2, 2],
        &[2, 1],
        8,
        DLDevice::CPU,
        DlpackFlags::empty(),
    );
    let base = capsule.validate().unwrap().data_ptr() as usize;
    let x = from_dlpack(capsule).unwrap();
    let v = x.view();
    assert_eq!(
        (v.offset(), v.data_ptr(), v.storage().data_ptr()),
        (2, base + 8, base)
    );
    assert_eq!(v.to_vec::<f32>().unwrap(), vec![2.0, 3.0, 4.0, 5.0]);
}

#[test]
fn byte_offsets_of_part_of_an_element_are_kept_and_misaligned_reads_refused() {
    let capsule = foreign::<DLManagedTensorVersioned>(
        vec![0; 16],
        f32_dtype(),
        &[2],
        &[1],
        2,
        DLDevice::CPU,
        DlpackFlags::empty(),
    );
    let base = capsule.validate().unwrap().data_ptr() as usize;
    let x = from_dlpack(capsule).unwrap();
    assert_eq!((x.view().offset(), x.view().data_ptr()), (0, base + 2));
    let err = x.view().unary(UnaryOp::Neg).err().unwrap().to_string();
    assert!(err.contains("not aligned for torch.float32"), "{err}");
}

#[test]
fn legacy_capsules_without_strides_are_compact() {
    let data: Vec<u8> = (0..6).flat_map(|i| (i as i16).to_ne_bytes()).collect();
    let capsule = foreign::<DLManagedTensor>(
        data,
        DLDataType::scalar(DLDataTypeCode::INT, 16),
        &[2, 3],
        &[3, 1],
        0,
        DLDevice::CPU,
        DlpackFlags::empty(),
    );
    // SAFETY: the descriptor is ours; before DLPack 1.2 NULL strides mean row-major.
    unsafe { (*capsule.as_ptr()).dl_tensor.strides = std::ptr::null_mut() };
    let x = from_dlpack(capsule).unwrap();
    assert_eq!(x.view().strides(), &[3, 1]);
    assert_eq!(x.view().to_vec::<i16>().unwrap(), vec![0, 1, 2, 3, 4, 5]);
}

#[test]
fn refusals_name_the_problem() {
    let neg = foreign::<DLManagedTensorVersioned>(
        (0..4).flat_map(|i| (i as f32).to_ne_bytes()).collect(),
        f32_dtype(),
        &[2, 2],
        &[-2, 1],
        8,
        DLDevice::CPU,
        DlpackFlags::empty(),
    );
    let err = from_dlpack(neg).unwrap_err().to_string();
    assert_eq!(
        err,
        "from_dlpack: the tensor's strides [-2, 1] (sizes [2, 2]) are negative, and negative strides are not supported (PyTorch's memory model has none); copy it with copy_from_dlpack"
    );
    let neg = foreign::<DLManagedTensorVersioned>(
        (0..4).flat_map(|i| (i as f32).to_ne_bytes()).collect(),
        f32_dtype(),
        &[2, 2],
        &[-2, 1],
        8,
        DLDevice::CPU,
        DlpackFlags::empty(),
    );
    assert_eq!(
        copy_from_dlpack(neg).unwrap().to_vec::<f32>().unwrap(),
        vec![2.0, 3.0, 0.0, 1.0]
    );

    let cuda = one(4, f32_dtype(), DLDevice::cuda(0));
    assert!(
        from_dlpack(cuda)
            .unwrap_err()
            .to_string()
            .contains("device (2, 0)")
    );
    // complex64 and uint16 are axial's: imported as they are.
    let complex = one(
        8,
        DLDataType::scalar(DLDataTypeCode::COMPLEX, 64),
        DLDevice::CPU,
    );
    assert_eq!(from_dlpack(complex).unwrap().view().dtype(), DType::C64);
    let u16s = one(
        2,
        DLDataType::scalar(DLDataTypeCode::UINT, 16),
        DLDevice::CPU,
    );
    assert_eq!(from_dlpack(u16s).unwrap().view().dtype(), DType::U16);
    // Two lanes of f32 are not.
    let lanes = one(
        8,
        DLDataType {
            code: DLDataTypeCode::FLOAT,
            bits: 32,
            lanes: 2,
        },
        DLDevice::CPU,
    );
    assert!(
        from_dlpack(lanes)
            .unwrap_err()
            .to_string()
            .contains("unsupported dtype in DLTensor: code 2, bits 32, lanes 2")
    );
}

#[test]
fn empty_tensors_export_null_data() {
    let mut x = RawTensor::zeros(&[0, 3], DType::F32).unwrap();
    let capsule = to_dlpack(&mut x).unwrap();
    assert!(capsule.validate().unwrap().data_ptr().is_null());
    let back = from_dlpack(capsule).unwrap();
    assert_eq!((back.view().shape(), back.view().numel()), (&[0, 3][..], 0));
}
