//! Laws of the ndarray bridge on random layouts: the ndarray view reads the
//! same elements at the same addresses as the axial view, and conversions
//! there and back keep the data pointer.
#![cfg(feature = "ndarray")]

use axial_core::{DType, Layout, RawTensor, Storage, TensorMut, TensorRef};
use axial_io::ndarray::{
    array_view, array_view_mut, copy_from_array, from_array, from_array_ref, from_array_view,
    into_array,
};
use ndarray::{Array, ArrayD, Axis, IxDyn, ShapeBuilder, Slice};
use proptest::prelude::*;

/// A strided layout (any non-negative strides, overlapping ones included)
/// and an offset, with the storage length that holds it plus some slack.
fn layouts() -> impl Strategy<Value = (Layout, usize)> {
    (0usize..=4)
        .prop_flat_map(|rank| {
            (
                prop::collection::vec(0usize..=4, rank),
                prop::collection::vec(0isize..=7, rank),
                0usize..=5,
                0usize..=3,
            )
        })
        .prop_map(|(shape, strides, offset, slack)| {
            let layout = Layout::from_parts(&shape, &strides, offset);
            let len = layout.required_len() + slack;
            (layout, len)
        })
}

/// Every index of `shape`, in row-major order.
fn indices(shape: &[usize]) -> Vec<Vec<usize>> {
    let mut out = vec![vec![]];
    for &n in shape {
        out = out
            .into_iter()
            .flat_map(|prefix| {
                (0..n).map(move |i| {
                    let mut p = prefix.clone();
                    p.push(i);
                    p
                })
            })
            .collect();
    }
    out
}

/// The element offset of `index` in `layout`.
fn offset_of(layout: &Layout, index: &[usize]) -> usize {
    let step: isize = index
        .iter()
        .zip(layout.strides())
        .map(|(&i, &s)| i as isize * s)
        .sum();
    layout.offset() + step as usize
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn array_views_read_the_same_elements_at_the_same_addresses((layout, len) in layouts()) {
        let values: Vec<f32> = (0..len).map(|i| i as f32).collect();
        let storage = Storage::from_slice(&values);
        let base = storage.data_ptr();
        let view = TensorRef::new(&storage, layout.clone(), DType::F32).unwrap();
        let a = array_view::<f32>(&view).unwrap();
        prop_assert_eq!(a.shape(), layout.shape());
        if layout.numel() > 0 {
            prop_assert_eq!(a.strides(), layout.strides());
        }
        for index in indices(layout.shape()) {
            let at = offset_of(&layout, &index);
            let element = &a[IxDyn(&index)];
            prop_assert_eq!(element as *const f32 as usize, base + at * 4);
            prop_assert_eq!(*element, at as f32);
        }
        if layout.numel() > 0 {
            prop_assert_eq!(a.as_ptr() as usize, view.data_ptr());
        }
    }

    #[test]
    fn mutable_array_views_write_where_axial_reads((layout, len) in layouts()) {
        let mut storage = Storage::from_slice(&vec![0i64; len]);
        let base = storage.data_ptr();
        let mut view = TensorMut::new(&mut storage, layout.clone(), DType::I64).unwrap();
        match array_view_mut::<i64>(&mut view) {
            Ok(mut a) => {
                prop_assert!(layout.is_non_overlapping());
                for (n, index) in indices(layout.shape()).iter().enumerate() {
                    let element = &mut a[IxDyn(index)];
                    prop_assert_eq!(element as *mut i64 as usize, base + offset_of(&layout, index) * 8);
                    *element = n as i64 + 1;
                }
                drop(a);
                if layout.numel() == 0 {
                    return Ok(());
                }
                let written = TensorRef::new(&storage, layout.clone(), DType::I64).unwrap().to_vec::<i64>().unwrap();
                prop_assert_eq!(written, (1..=layout.numel() as i64).collect::<Vec<_>>());
            }
            Err(e) => {
                prop_assert!(!layout.is_non_overlapping(), "{}", e);
                prop_assert!(e.to_string().contains("share memory"));
            }
        }
    }

    #[test]
    fn views_there_and_back_keep_the_data_pointer((layout, len) in layouts()) {
        let values: Vec<u8> = (0..len).map(|i| i as u8).collect();
        let storage = Storage::from_slice(&values);
        let view = TensorRef::new(&storage, layout.clone(), DType::U8).unwrap();
        let a = array_view::<u8>(&view).unwrap();
        // Brute force: do the elements touch every slot from first to last?
        let slots: std::collections::BTreeSet<usize> =
            indices(layout.shape()).iter().map(|i| offset_of(&layout, i)).collect();
        let covers = match (slots.first(), slots.last()) {
            (Some(lo), Some(hi)) => hi - lo + 1 == slots.len(),
            _ => true,
        };
        let imported = from_array_view(a);
        prop_assert_eq!(imported.is_ok(), covers);
        match imported {
            Ok(back) => {
                let v = back.view();
                prop_assert!(back.is_read_only());
                prop_assert_eq!(v.shape(), layout.shape());
                if layout.numel() == 0 {
                    return Ok(());
                }
                prop_assert_eq!(v.strides(), layout.strides());
                prop_assert_eq!(v.data_ptr(), view.data_ptr());
                prop_assert_eq!(v.to_vec::<u8>().unwrap(), view.to_vec::<u8>().unwrap());
            }
            Err(e) => prop_assert!(e.to_string().contains("leave gaps"), "{}", e),
        }
    }

    #[test]
    fn owned_arrays_move_in_and_back_out(
        shape in prop::collection::vec(1usize..=4, 1..=3),
        seed in any::<u64>(),
    ) {
        let numel: usize = shape.iter().product();
        let mut a: ArrayD<f64> = Array::from_shape_vec(IxDyn(&shape), (0..numel).map(|i| i as f64).collect()).unwrap();
        // Permute the axes by the seed and step through the last one.
        let mut axes: Vec<usize> = (0..shape.len()).collect();
        axes.rotate_left(seed as usize % shape.len());
        a = a.permuted_axes(IxDyn(&axes));
        let step = 1 + (seed >> 8) as usize % 2;
        a.slice_axis_inplace(Axis(0), Slice::new(0, None, step as isize));
        let (addr, strides, expected) = (a.as_ptr() as usize, a.strides().to_vec(), a.clone());
        let x = from_array(a).unwrap();
        prop_assert_eq!(x.view().data_ptr(), addr);
        prop_assert_eq!(x.view().strides().to_vec(), strides.clone());
        let back = into_array::<f64>(x.into_raw().unwrap()).unwrap();
        prop_assert_eq!(&back, &expected);
        prop_assert_eq!(back.as_ptr() as usize, addr); // moved, never copied
        prop_assert_eq!(back.strides(), &strides[..]);
    }

    #[test]
    fn borrowed_owned_arrays_keep_gaps_and_addresses(rows in 1usize..=5, cols in 2usize..=6, from in 0usize..2) {
        let mut a = Array::from_shape_vec((rows, cols), (0..rows * cols).map(|i| i as i32).collect()).unwrap();
        a.slice_axis_inplace(Axis(1), Slice::new(from as isize, None, 2));
        let x = from_array_ref(&a).unwrap();
        prop_assert_eq!(x.view().data_ptr(), a.as_ptr() as usize);
        prop_assert_eq!(x.view().strides().to_vec(), a.strides().to_vec());
        prop_assert_eq!(x.view().to_vec::<i32>().unwrap(), a.iter().copied().collect::<Vec<_>>());
    }
}

#[test]
fn negative_strides_are_refused_and_copied_on_request() {
    let a = Array::from_shape_vec((2, 3).strides((3, 1)), vec![0u8, 1, 2, 3, 4, 5]).unwrap();
    let flipped = a.slice(ndarray::s![.., ..;-1]);
    let err = from_array_view(flipped).unwrap_err().to_string();
    assert_eq!(
        err,
        "from_array_view: the array's strides [3, -1] are negative, and negative strides are not supported (PyTorch's memory model has none); copy it with copy_from_array"
    );
    let copy = copy_from_array(flipped).unwrap();
    assert_eq!(copy.to_vec::<u8>().unwrap(), vec![2, 1, 0, 5, 4, 3]);
    let mut owned = a.clone();
    owned.invert_axis(Axis(0));
    assert!(from_array(owned).is_err());
}

#[test]
fn tensors_of_axial_memory_come_back_as_copies() {
    let x = RawTensor::arange(0.0, 6.0, 1.0, DType::F32).unwrap();
    let t = x
        .view()
        .view(&[2, 3])
        .unwrap()
        .t()
        .unwrap()
        .to_contiguous()
        .unwrap();
    let addr = t.view().data_ptr();
    let a = into_array::<f32>(t).unwrap();
    assert_ne!(a.as_ptr() as usize, addr);
    assert_eq!(
        a,
        ndarray::arr2(&[[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]).into_dyn()
    );
    let wrong = RawTensor::zeros(&[2], DType::I8).unwrap();
    assert!(into_array::<f32>(wrong).is_err());
}

#[test]
fn arrays_with_an_offset_or_shared_memory_are_copied_back() {
    // An offset the Vec cannot express in ndarray's constructors: copied.
    let mut a = Array::from_shape_vec((3, 2), (0..6).map(|i| i as i16).collect()).unwrap();
    a.slice_axis_inplace(Axis(0), Slice::from(1..));
    let x = from_array(a.clone()).unwrap();
    let back = into_array::<i16>(x.into_raw().unwrap()).unwrap();
    assert_eq!(back, a.into_dyn());
    // A storage shared with a DLPack-like handle: the handle keeps it, so copy.
    let x = from_array(ndarray::arr1(&[1.0f32, 2.0])).unwrap();
    let (mut storage, layout, dtype) = x.into_raw().unwrap().into_parts();
    let keep = storage.keep_alive();
    let back = into_array::<f32>(RawTensor::from_parts(storage, layout, dtype).unwrap()).unwrap();
    assert_eq!(back.as_slice().unwrap(), &[1.0, 2.0]);
    drop(keep);
}
