// shape! rejects an axis name written twice.
use axial::prelude::*;
axes!(Rows);

type Bad = shape![Rows: 2, Rows: 3];

fn main() {}
