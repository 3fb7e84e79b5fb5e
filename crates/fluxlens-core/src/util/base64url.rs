//! base64url (the `base64` crate): snapshot links and the `auth-provider` cookie.

use base64::Engine;
use base64::alphabet::{STANDARD, URL_SAFE};
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

/// Decoding is tolerant as browsers and servers write these values: padding optional, and
/// trailing bits not checked.
const TOLERANT: GeneralPurposeConfig = GeneralPurposeConfig::new()
    .with_encode_padding(false)
    .with_decode_padding_mode(DecodePaddingMode::Indifferent)
    .with_decode_allow_trailing_bits(true);
const URL: GeneralPurpose = GeneralPurpose::new(&URL_SAFE, TOLERANT);
const STD: GeneralPurpose = GeneralPurpose::new(&STANDARD, TOLERANT);

/// Encodes base64url without padding.
pub fn encode(input: &[u8]) -> String {
    URL.encode(input)
}

/// Decodes base64url, or standard base64 (padding optional); `None` when it is neither.
pub fn decode(s: &str) -> Option<Vec<u8>> {
    URL.decode(s).or_else(|_| STD.decode(s)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_tolerates_padding_and_the_standard_alphabet() {
        assert_eq!(decode("YWJj").unwrap(), b"abc");
        assert_eq!(decode("YWI").unwrap(), b"ab");
        assert_eq!(decode("YWI=").unwrap(), b"ab");
        assert_eq!(encode(b"{}"), "e30");
        assert_eq!(encode(b"abc"), "YWJj");
        assert_eq!(encode(&[0xfb, 0xff]), "-_8");
        assert_eq!(decode("+/8=").unwrap(), [0xfb, 0xff]);
        assert_eq!(decode("-_8").unwrap(), [0xfb, 0xff]);
        assert!(decode("a b").is_none());
        for n in 0..40u8 {
            let data: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37)).collect();
            assert_eq!(decode(&encode(&data)).unwrap(), data);
        }
    }
}
