//! LZF decompression (h5py's filter 32000; liblzf's format): a run of
//! control bytes, each a literal run (`< 32`: that many plus one bytes
//! follow) or a back-reference (length in the top three bits, extended by
//! a byte when 7; distance in the low five bits and the next byte).

/// Decompresses `input` into at most `limit` bytes.
///
/// # Errors
/// The stream is truncated, refers before the start of the output, or
/// decodes to more than `limit` bytes.
pub(crate) fn decompress(input: &[u8], limit: usize) -> Result<Vec<u8>, String> {
    let mut out: Vec<u8> = Vec::with_capacity(limit.min(input.len().saturating_mul(8)));
    let mut i = 0;
    let truncated = || "lzf: the stream is truncated".to_string();
    while i < input.len() {
        let ctrl = usize::from(input[i]);
        i += 1;
        if ctrl < 32 {
            let n = ctrl + 1;
            let run = input.get(i..i + n).ok_or_else(truncated)?;
            if out.len() + n > limit {
                return Err(format!(
                    "lzf: the stream decodes to more than {limit} bytes"
                ));
            }
            out.extend_from_slice(run);
            i += n;
        } else {
            let mut len = ctrl >> 5;
            if len == 7 {
                len += usize::from(*input.get(i).ok_or_else(truncated)?);
                i += 1;
            }
            len += 2;
            let low = usize::from(*input.get(i).ok_or_else(truncated)?);
            i += 1;
            let distance = ((ctrl & 0x1f) << 8) + low + 1;
            let start = out
                .len()
                .checked_sub(distance)
                .ok_or_else(|| "lzf: a back-reference reaches before the start".to_string())?;
            if out.len() + len > limit {
                return Err(format!(
                    "lzf: the stream decodes to more than {limit} bytes"
                ));
            }
            // Byte by byte: a reference may overlap what it writes.
            for k in 0..len {
                let b = out[start + k];
                out.push(b);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::decompress;

    #[test]
    fn literals_and_overlapping_references_decode() {
        // "abc" literal, then a reference of length 6 at distance 3: "abcabcabc".
        let stream = [2, b'a', b'b', b'c', (4 << 5), 2];
        assert_eq!(decompress(&stream, 100).unwrap(), b"abcabcabc");
        // The long form: length 7 + extra byte.
        let stream = [0, b'x', (7 << 5), 3, 0];
        assert_eq!(decompress(&stream, 100).unwrap(), vec![b'x'; 13]);
    }

    #[test]
    fn damaged_streams_are_errors() {
        assert!(decompress(&[5, b'a'], 100).is_err());
        assert!(decompress(&[(1 << 5), 0], 100).is_err());
        assert!(decompress(&[2, b'a', b'b', b'c', (4 << 5), 2], 5).is_err());
    }
}
