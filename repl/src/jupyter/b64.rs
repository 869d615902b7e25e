//! Base64 (RFC 4648) for the two places the kernel side needs it: PNGs in
//! MIME bundles (standard alphabet, padded) and file hashes in a wheel's
//! RECORD (URL-safe alphabet, unpadded). Too small to take a crate for.

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Standard alphabet with `=` padding (MIME bundles).
pub fn standard(bytes: &[u8]) -> String {
    encode(bytes, STANDARD, true)
}

/// URL-safe alphabet without padding (wheel RECORD hashes).
pub fn url_safe_unpadded(bytes: &[u8]) -> String {
    encode(bytes, URL_SAFE, false)
}

fn encode(bytes: &[u8], table: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for (i, shift) in [18, 12, 6, 0].iter().enumerate() {
            if i <= c.len() {
                out.push(table[(n >> shift) as usize & 63] as char);
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_rfc4648() {
        assert_eq!(super::standard(b""), "");
        assert_eq!(super::standard(b"f"), "Zg==");
        assert_eq!(super::standard(b"fo"), "Zm8=");
        assert_eq!(super::standard(b"foo"), "Zm9v");
        assert_eq!(super::standard(b"foobar"), "Zm9vYmFy");
        assert_eq!(super::url_safe_unpadded(&[0xfb, 0xff]), "-_8");
    }
}
