//! Recipes of the einops cases: output shapes, and the steps einops' torch
//! backend would run.

use axial_pattern::{Operation, Pattern, Recipe, Reduction, Transform};

fn transform(text: &str, op: Operation, sizes: &[(&str, usize)], shape: &[usize]) -> Transform {
    let p = Pattern::parse(text).expect(text);
    let names: Vec<&str> = sizes.iter().map(|s| s.0).collect();
    let values: Vec<usize> = sizes.iter().map(|s| s.1).collect();
    Recipe::new(&p, op, &names)
        .expect(text)
        .transform(shape, &values)
        .expect(text)
}

const R: Operation = Operation::Rearrange;
const REPEAT: Operation = Operation::Repeat;

/// pattern, operation, sizes, input shape, output shape.
type Case = (
    &'static str,
    Operation,
    Vec<(&'static str, usize)>,
    Vec<usize>,
    Vec<usize>,
);

fn reduce(r: Reduction) -> Operation {
    Operation::Reduce(r)
}

#[test]
fn output_shapes_of_the_einops_cases() {
    let x = [2, 3, 4, 5];
    let cases: Vec<Case> = vec![
        (
            "b c h w -> b h w c",
            R,
            vec![],
            x.to_vec(),
            vec![2, 4, 5, 3],
        ),
        ("b c h w -> b (c h w)", R, vec![], x.to_vec(), vec![2, 60]),
        ("b c h w -> (b h) w c", R, vec![], x.to_vec(), vec![8, 5, 3]),
        (
            "b c h (w1 w2) -> b c h w1 w2",
            R,
            vec![("w2", 2)],
            vec![2, 3, 4, 6],
            vec![2, 3, 4, 3, 2],
        ),
        (
            "b c (h h1) (w w1) -> b (c h1 w1) h w",
            R,
            vec![("h1", 2), ("w1", 2)],
            vec![2, 3, 4, 6],
            vec![2, 12, 2, 3],
        ),
        (
            "b (h1 c) h w -> b c (h h1) w",
            R,
            vec![("h1", 2)],
            vec![2, 12, 4, 5],
            vec![2, 6, 8, 5],
        ),
        ("b ... -> b (...)", R, vec![], x.to_vec(), vec![2, 60]),
        ("... c -> c ...", R, vec![], x.to_vec(), vec![5, 2, 3, 4]),
        ("... -> (...)", R, vec![], x.to_vec(), vec![120]),
        ("a b -> a 1 b", R, vec![], vec![2, 3], vec![2, 1, 3]),
        ("a b -> a () b ()", R, vec![], vec![2, 3], vec![2, 1, 3, 1]),
        ("a 1 b -> a b", R, vec![], vec![2, 1, 3], vec![2, 3]),
        ("a () b -> b a", R, vec![], vec![2, 1, 3], vec![3, 2]),
        ("(a b) -> a b", R, vec![("a", 2)], vec![6], vec![2, 3]),
        (
            "a b c d e -> (e a) d (c b)",
            R,
            vec![],
            vec![2, 3, 4, 5, 6],
            vec![12, 5, 12],
        ),
        (
            "a b ... e -> b (a ...) e",
            R,
            vec![],
            vec![2, 3, 4, 5, 6],
            vec![3, 40, 6],
        ),
        ("... -> ...", R, vec![], vec![], vec![]),
        (
            "(a a2) b c ... -> b (c a2) (a ...)",
            R,
            vec![("a2", 2)],
            vec![4, 5, 6, 3],
            vec![5, 12, 6],
        ),
        (
            "b c h w -> b c",
            reduce(Reduction::Mean),
            vec![],
            x.to_vec(),
            vec![2, 3],
        ),
        (
            "b c (h h2) (w w2) -> b c h w",
            reduce(Reduction::Max),
            vec![("h2", 2), ("w2", 2)],
            vec![2, 3, 4, 6],
            vec![2, 3, 2, 3],
        ),
        (
            "b c (h 2) (w 2) -> b c h w",
            reduce(Reduction::Max),
            vec![],
            vec![2, 3, 4, 6],
            vec![2, 3, 2, 3],
        ),
        (
            "b c (h1 h2) (w1 w2) -> b c h1 w1",
            reduce(Reduction::Max),
            vec![("h1", 3), ("w1", 4)],
            vec![10, 20, 30, 40],
            vec![10, 20, 3, 4],
        ),
        (
            "b c h w -> b c () ()",
            reduce(Reduction::Mean),
            vec![],
            x.to_vec(),
            vec![2, 3, 1, 1],
        ),
        (
            "b c h w -> 1 c 1 1",
            reduce(Reduction::Mean),
            vec![],
            x.to_vec(),
            vec![1, 3, 1, 1],
        ),
        (
            "a b c d e -> ",
            reduce(Reduction::Sum),
            vec![],
            vec![2, 3, 4, 5, 6],
            vec![],
        ),
        (
            "a b c d e -> (e c) a",
            reduce(Reduction::Min),
            vec![],
            vec![2, 3, 4, 5, 6],
            vec![24, 2],
        ),
        (
            "(a1 a2) ... (e1 e2) -> ",
            reduce(Reduction::Sum),
            vec![("a1", 1), ("e2", 2)],
            vec![2, 3, 4, 5, 6],
            vec![],
        ),
        (
            "h w -> h w c",
            REPEAT,
            vec![("c", 3)],
            vec![30, 40],
            vec![30, 40, 3],
        ),
        (
            "h w -> (h h2) (w w2)",
            REPEAT,
            vec![("h2", 2), ("w2", 2)],
            vec![30, 40],
            vec![60, 80],
        ),
        (
            "... -> copy1 ... copy2",
            REPEAT,
            vec![("copy1", 2), ("copy2", 3)],
            vec![2, 3, 5],
            vec![2, 2, 3, 5, 3],
        ),
        (
            "1 b c d -> (d copy 1) 3 b c",
            REPEAT,
            vec![("copy", 3)],
            vec![1, 2, 4, 6],
            vec![18, 3, 2, 4],
        ),
        ("b h w -> h (b w)", R, vec![], vec![5, 3, 4], vec![3, 20]),
    ];
    for (text, op, sizes, shape, want) in cases {
        let t = transform(text, op, &sizes, &shape);
        assert_eq!(t.output_shape, want, "{text}");
        let last = t.final_shape.clone().unwrap_or_default();
        assert!(t.final_shape.is_none() || last == want, "{text}");
    }
}

#[test]
fn a_permutation_alone() {
    let t = transform("b c h w -> b h w c", R, &[], &[2, 3, 4, 5]);
    assert_eq!(t.init_shape, None);
    assert_eq!(t.permutation, Some(vec![0, 2, 3, 1]));
    assert!(t.reduced_axes.is_empty() && t.added_axes.is_empty());
    assert_eq!(t.final_shape, None);
}

#[test]
fn a_merge_alone() {
    let t = transform("b c h w -> b (c h w)", R, &[], &[2, 3, 4, 5]);
    assert_eq!((t.init_shape, t.permutation), (None, None));
    assert_eq!(t.final_shape, Some(vec![2, 60]));
}

#[test]
fn a_split_then_a_permutation_then_a_merge() {
    let t = transform(
        "b (h1 c) h w -> b c (h h1) w",
        R,
        &[("h1", 2)],
        &[2, 12, 4, 5],
    );
    assert_eq!(t.init_shape, Some(vec![2, 2, 6, 4, 5]));
    assert_eq!(t.permutation, Some(vec![0, 2, 3, 1, 4]));
    assert_eq!(t.final_shape, Some(vec![2, 6, 8, 5]));
}

#[test]
fn ellipsis_axes_expand_in_place() {
    let t = transform("a b ... e -> b (a ...) e", R, &[], &[2, 3, 4, 5, 6]);
    assert_eq!(t.init_shape, None);
    assert_eq!(t.permutation, Some(vec![1, 0, 2, 3, 4]));
    assert_eq!(t.final_shape, Some(vec![3, 40, 6]));
    let t = transform("... -> ...", R, &[], &[]);
    assert_eq!((t.permutation, t.final_shape), (None, None));
    assert!(t.output_shape.is_empty());
}

#[test]
fn reduced_axes_go_last() {
    let t = transform(
        "b c (h 2) (w 2) -> b c h w",
        reduce(Reduction::Max),
        &[],
        &[2, 3, 4, 6],
    );
    assert_eq!(t.init_shape, Some(vec![2, 3, 2, 2, 3, 2]));
    assert_eq!(t.permutation, Some(vec![0, 1, 2, 4, 3, 5]));
    assert_eq!(t.reduced_axes, vec![4, 5]);
    assert_eq!(t.final_shape, None);
    let t = transform(
        "b c h w -> 1 c 1 1",
        reduce(Reduction::Mean),
        &[],
        &[2, 3, 4, 5],
    );
    assert_eq!(t.permutation, Some(vec![1, 0, 2, 3]));
    assert_eq!(t.reduced_axes, vec![1, 2, 3]);
    assert_eq!(t.final_shape, Some(vec![1, 3, 1, 1]));
}

#[test]
fn new_axes_are_added_at_their_output_positions() {
    let t = transform("h w -> h w c", REPEAT, &[("c", 3)], &[30, 40]);
    assert_eq!(t.added_axes, vec![(2, 3)]);
    assert_eq!((t.permutation, t.final_shape), (None, None));
    let t = transform(
        "1 b c d -> (d copy 1) 3 b c",
        REPEAT,
        &[("copy", 3)],
        &[1, 2, 4, 6],
    );
    assert_eq!(t.init_shape, Some(vec![2, 4, 6]));
    assert_eq!(t.permutation, Some(vec![2, 0, 1]));
    assert_eq!(t.added_axes, vec![(1, 3), (2, 3)]);
    assert_eq!(t.final_shape, Some(vec![18, 3, 2, 4]));
}

#[test]
fn a_recipe_is_independent_of_the_rank_under_an_ellipsis() {
    let p = Pattern::parse("b ... c -> c b (...)").unwrap();
    let r = Recipe::new(&p, R, &[]).unwrap();
    assert_eq!(
        r.transform(&[2, 7], &[]).unwrap().output_shape,
        vec![7, 2, 1]
    );
    assert_eq!(
        r.transform(&[2, 3, 7], &[]).unwrap().output_shape,
        vec![7, 2, 3]
    );
    assert_eq!(
        r.transform(&[2, 3, 4, 7], &[]).unwrap().output_shape,
        vec![7, 2, 12]
    );
}
