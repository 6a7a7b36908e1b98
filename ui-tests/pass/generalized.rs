// The generalized tensors by name: a per-channel weight in a quantized
// linear layer, a sparse matrix times a dense one, a ragged batch reduced
// over its ragged axis and softmaxed along it.
use axial::prelude::*;
axes!(Batch, In, Out, Rows, Cols, Features, Seq);

fn main() {
    let x = Tensor::<f32, shape![Batch: 2, In: 3]>::ones();
    let w = Tensor::<f32, shape![Out: 4, In: 3]>::full(0.5);
    let qw = w.quantize_per_channel::<QInt8, Out>(&[0.01; 4], &[0; 4]);
    let y = x
        .quantize_per_tensor::<QUInt8>(0.01, 0)
        .linear(&qw.prepack(), 0.1, 0);
    let _: Quantized<QUInt8, shape![Batch: 2, Out: 4]> = y;

    let s = SparseCoo::<f32, shape![Rows: 3, Cols: 3]>::from_entries(&[[0, 1]], &[1.0]);
    let d: Tensor<f32, shape![Rows: 3, Features: 2]> = s.matmul(&Tensor::<f32, shape![Cols: 3, Features: 2]>::ones());
    assert_eq!(d.get([0, 1]), 1.0);

    let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn, Features: 2]>::builder()
        .push(&Tensor::<f32, shape![Seq: 1, Features: 2]>::ones())
        .push(&Tensor::<f32, shape![Seq: Dyn, Features: 2]>::ones_dyn(3))
        .build();
    let sums: Tensor<f32, shape![Batch: Dyn, Features: 2]> = n.sum::<Seq>();
    let per_row: Nested<f32, shape![Batch: Dyn, Seq: Dyn]> = n.sum::<Features>();
    assert_eq!((sums.to_vec(), per_row.lengths()), (vec![1.0, 1.0, 3.0, 3.0], vec![1, 3]));
    let _ = n.softmax::<Seq>();
}
