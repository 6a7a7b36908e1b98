//! The reverse walk: from the output's node, each op's backward function
//! runs once every gradient of its output has arrived, and each node is
//! let go as soon as it has run, so the tensors it kept are freed during
//! the pass, not after it.

use std::collections::HashMap;
use std::rc::Rc;

use super::grad::{Grad, Gradients};
use super::node::{Node, NodeKind};
use crate::{Backend, Error, Result};

/// A node's address: its key while the pass holds it.
fn key<D: crate::Device>(node: &Rc<Node<'_, D>>) -> *const () {
    Rc::as_ptr(node).cast()
}

/// How many edges lead to each node reachable from `root`.
fn in_degrees<D: crate::Device>(root: &Rc<Node<'_, D>>) -> HashMap<*const (), usize> {
    let mut degrees = HashMap::new();
    let mut stack = vec![Rc::clone(root)];
    degrees.insert(key(root), 0);
    while let Some(node) = stack.pop() {
        for child in node.next.iter().flatten() {
            let seen = degrees.contains_key(&key(child));
            *degrees.entry(key(child)).or_insert(0) += 1;
            if !seen {
                stack.push(Rc::clone(child));
            }
        }
    }
    degrees
}

/// Runs the backward pass from `root`, whose output's gradient is `grad`.
pub(crate) fn run<D: Backend>(root: Rc<Node<'_, D>>, grad: Grad<D>) -> Result<Gradients<D>> {
    let mut degrees = in_degrees(&root);
    // Gradients gathered for nodes whose other edges are still to come.
    let mut pending: HashMap<*const (), (Rc<Node<'_, D>>, Grad<D>)> = HashMap::new();
    let mut ready = vec![(root, grad)];
    let mut out = Gradients::default();
    while let Some((node, g)) = ready.pop() {
        let backward = match &node.kind {
            NodeKind::Leaf(id) => {
                out.add(*id, g)?;
                continue;
            }
            NodeKind::Op(backward) => backward,
        };
        let needs: Vec<bool> = node.next.iter().map(Option::is_some).collect();
        let grads = backward(g, &needs)?;
        if grads.len() != node.next.len() {
            return Err(Error::invalid(
                "backward",
                format!(
                    "function {}Backward0 returned {} gradients, expected {}",
                    node.name,
                    grads.len(),
                    node.next.len()
                ),
            ));
        }
        for (child, gi) in node.next.iter().zip(grads) {
            let Some(child) = child else { continue };
            let k = key(child);
            if let Some(gi) = gi {
                let sum = match pending.remove(&k) {
                    Some((_, acc)) => acc.accumulate(&gi)?,
                    None => gi,
                };
                pending.insert(k, (Rc::clone(child), sum));
            }
            let left = degrees.get_mut(&k).map(|n| {
                *n -= 1;
                *n
            });
            if left == Some(0)
                && let Some(entry) = pending.remove(&k)
            {
                ready.push(entry);
            }
        }
        // `node` drops here: when the pass held the last handle, the
        // tensors its op kept are freed now.
    }
    Ok(out)
}
