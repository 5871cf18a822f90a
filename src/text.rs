//! Texts made in one piece: a joined text written once, straight into the shared value that
//! holds it.

use std::rc::Rc;

/// The text `a` then `b`, written once into the shared value (a `String` copied into an
/// `Rc<str>` would take twice the memory at its peak, and touch it twice).
#[allow(unsafe_code)]
pub fn joined(a: &str, b: &str) -> Rc<str> {
    let mut buf: Rc<[std::mem::MaybeUninit<u8>]> = Rc::new_uninit_slice(a.len() + b.len());
    let Some(bytes) = Rc::get_mut(&mut buf) else {
        unreachable!("a value just made has one owner")
    };
    let (left, right) = bytes.split_at_mut(a.len());
    // SAFETY: `left` and `right` are `a.len()` and `b.len()` bytes long, and do not overlap the
    // texts copied into them
    unsafe {
        std::ptr::copy_nonoverlapping(a.as_ptr(), left.as_mut_ptr().cast::<u8>(), a.len());
        std::ptr::copy_nonoverlapping(b.as_ptr(), right.as_mut_ptr().cast::<u8>(), b.len());
    }
    // SAFETY: every byte was written just above; two texts one after the other are UTF-8 as
    // they are, and `[u8]` and `str` have one layout
    unsafe { Rc::from_raw(Rc::into_raw(buf.assume_init()) as *const str) }
}

#[cfg(test)]
mod tests {
    #[test]
    fn texts_are_joined_as_written() {
        assert_eq!(&*super::joined("将棋", "と囲碁"), "将棋と囲碁");
        assert_eq!(&*super::joined("", "x"), "x");
        assert_eq!(&*super::joined("", ""), "");
    }
}
