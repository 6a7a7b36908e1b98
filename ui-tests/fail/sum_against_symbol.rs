// A grown cache (`Past + Seq` keys) where the cache before it (`Past`
// keys) is expected: a sum of symbols never unifies with a lone symbol.
use axial::prelude::*;
use axial::Plus;
axes!(Key, Past, Seq, Head);

fn mix<'id>(
    grown: &Tensor<f32, shape![Key: Plus<Sym<'id, Past>, Sym<'id, Seq>>, Head: 4]>,
    past: &Tensor<f32, shape![Key: Sym<'id, Past>, Head: 4]>,
) {
    let _ = grown + past;
}

fn main() {}
