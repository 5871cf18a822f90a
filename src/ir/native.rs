#![forbid(unsafe_code)]
//! Values made by native code (a shogi position, a Go board...), opaque to the rules.

use std::any::Any;
use std::cmp::Ordering;
use std::fmt;

/// A value made by native code (a shogi position, a Go board...), seen by the rules only through
/// native functions.
pub trait NativeObj: fmt::Debug + 'static {
    /// The opaque type's name as rule files write it (`State`, `Board`...).
    fn type_name(&self) -> &str;
    fn as_any(&self) -> &dyn Any;
    /// Equality with another object of the same type.
    fn eq_obj(&self, other: &dyn NativeObj) -> bool;
    fn hash_obj(&self) -> u64;
    /// A total order among objects of the same type (for sets and maps).
    fn cmp_obj(&self, other: &dyn NativeObj) -> Ordering;
    /// One-line text; `display_long` may print a diagram.
    fn display(&self) -> String;
    fn display_long(&self) -> String {
        self.display()
    }
}
