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
    /// The object, to be downcast to its type by the native functions that take it.
    fn as_any(&self) -> &dyn Any;
    /// Equality with another object of the same type.
    fn eq_obj(&self, other: &dyn NativeObj) -> bool;
    /// A hash consistent with `eq_obj`.
    fn hash_obj(&self) -> u64;
    /// A total order among objects of the same type (for sets and maps).
    fn cmp_obj(&self, other: &dyn NativeObj) -> Ordering;
    /// One-line text; `display_long` may print a diagram.
    fn display(&self) -> String;
    /// Text for a closer look (a board diagram); the one-line text unless the type says more.
    fn display_long(&self) -> String {
        self.display()
    }
}
