//! Opening the zip archives of checkpoints and `.npz` files.
//!
//! The archive starts at the file's first byte, as torch's and numpy's
//! readers require (both check for a local header there), and the `zip`
//! crate is told so: left to guess, it takes the central directory to end
//! where the end record starts. torch writes a zip64 end record and its
//! locator (76 bytes) between the two, so the guess lands 76 bytes into the
//! directory, which is the start of its second entry when the first one is
//! 76 bytes long (a checkpoint whose file name has 21 characters before
//! `.pt`); the archive then read as damaged.

use std::io::Cursor;

use zip::read::{ArchiveOffset, Config};
use zip::result::ZipError;

/// An archive read from memory.
pub(crate) type Archive<'a> = zip::ZipArchive<Cursor<&'a [u8]>>;

/// Why an archive did not open.
pub(crate) enum OpenError {
    /// No end of central directory record in the file's last 64 KiB: the
    /// file is cut short (or is not a zip).
    NoEndRecord,
    /// The `zip` crate's reason.
    Zip(ZipError),
}

/// The end record's signature.
const END_RECORD: &[u8; 4] = b"PK\x05\x06";
/// The end record's size without its comment, and the longest comment.
const END_RECORD_LEN: usize = 22;
const MAX_COMMENT: usize = u16::MAX as usize;

/// Opens the archive `bytes` holds, starting at its first byte.
pub(crate) fn open(bytes: &[u8]) -> Result<Archive<'_>, OpenError> {
    let config = Config {
        archive_offset: ArchiveOffset::Known(0),
    };
    zip::ZipArchive::with_config(config, Cursor::new(bytes)).map_err(|e| {
        if has_end_record(bytes) {
            OpenError::Zip(e)
        } else {
            OpenError::NoEndRecord
        }
    })
}

/// Whether the end record's signature is where one can be: in the last
/// 22 + 65535 bytes.
fn has_end_record(bytes: &[u8]) -> bool {
    let from = bytes.len().saturating_sub(END_RECORD_LEN + MAX_COMMENT);
    bytes[from..]
        .windows(END_RECORD.len())
        .any(|w| w == END_RECORD)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// A stored archive whose central directory is followed by a zip64 end
    /// record and locator, as torch writes it, with a first entry of 76 bytes.
    fn torch_like() -> Vec<u8> {
        let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let stored = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        // 46 bytes of header + a 30-byte name = 76, as `my_model_checkpoint_1/data.pkl`.
        for name in [
            "my_model_checkpoint_1/data.pkl",
            "my_model_checkpoint_1/version",
        ] {
            zip.start_file(name, stored).unwrap();
            zip.write_all(b"3\n").unwrap();
        }
        let mut bytes = zip.finish().unwrap().into_inner();
        let eocd = bytes.len() - END_RECORD_LEN;
        let cd_size = u32::from_le_bytes(bytes[eocd + 12..eocd + 16].try_into().unwrap());
        let cd_offset = u32::from_le_bytes(bytes[eocd + 16..eocd + 20].try_into().unwrap());
        let end = bytes.split_off(eocd);
        // The zip64 end record (56 bytes) and its locator (20 bytes).
        let z64_at = bytes.len() as u64;
        bytes.extend_from_slice(b"PK\x06\x06");
        bytes.extend_from_slice(&44u64.to_le_bytes());
        bytes.extend_from_slice(&[0x1e, 0x03, 0x2d, 0x00]);
        bytes.extend_from_slice(&[0; 8]);
        bytes.extend_from_slice(&2u64.to_le_bytes());
        bytes.extend_from_slice(&2u64.to_le_bytes());
        bytes.extend_from_slice(&u64::from(cd_size).to_le_bytes());
        bytes.extend_from_slice(&u64::from(cd_offset).to_le_bytes());
        bytes.extend_from_slice(b"PK\x06\x07");
        bytes.extend_from_slice(&0u32.to_le_bytes());
        bytes.extend_from_slice(&z64_at.to_le_bytes());
        bytes.extend_from_slice(&1u32.to_le_bytes());
        bytes.extend_from_slice(&end);
        bytes
    }

    #[test]
    fn the_directory_is_read_where_the_end_record_says_it_starts() {
        let bytes = torch_like();
        let mut archive = open(&bytes).ok().expect("opens");
        let names: Vec<String> = archive
            .file_names()
            .map(|n| n.unwrap().to_string())
            .collect();
        assert_eq!(
            names,
            [
                "my_model_checkpoint_1/data.pkl",
                "my_model_checkpoint_1/version"
            ]
        );
        assert_eq!(archive.by_index(1).unwrap().size(), 2);
        // Left to guess, the zip crate starts at the second entry.
        assert!(zip::ZipArchive::new(Cursor::new(&bytes[..])).is_err());
    }

    #[test]
    fn a_file_cut_before_its_end_record_has_none() {
        let bytes = torch_like();
        assert!(matches!(
            open(&bytes[..bytes.len() / 2]),
            Err(OpenError::NoEndRecord)
        ));
        assert!(matches!(
            open(b"PK\x05\x06 not an end record"),
            Err(OpenError::Zip(_))
        ));
    }
}
