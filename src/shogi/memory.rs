//! Memory for the mate search's transposition table, the only place where the table size
//! (gigabytes, read at random) makes memory the bottleneck: a zero-filled array mapped straight
//! from the system, and two hints.
//!
//! All three need `unsafe`: `mmap`, `madvise` and a prefetch instruction have no safe wrapper in
//! the standard library. The hints cannot change what the program computes: a prefetch only
//! loads a cache line early, and the advice only asks the kernel for 2 MiB pages. The mapping is
//! why a large table costs nothing until it is used: the standard allocator zeroes memory
//! aligned to more than 16 bytes by writing every byte (a second per gigabyte, and every page
//! made resident at once), while fresh pages of an anonymous mapping read as zero and become
//! resident only when first written.

/// Asks the processor to bring the cache line of `r` into the cache.
#[inline(always)]
pub fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` reads nothing and writes nothing; it only hints the cache, and the
    // pointer comes from a live reference. SSE is part of every x86_64 target.
    #[allow(unsafe_code)]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            r as *const T as *const i8,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}

/// Asks the kernel to back the `len` bytes at address `start` (an allocation the caller owns)
/// with huge pages, for fewer TLB misses on random access. Best made before the memory is first
/// touched. Ignored where the kernel or platform does not offer them.
pub fn advise_huge_pages(start: usize, len: usize) {
    #[cfg(target_os = "linux")]
    {
        if len < 4 << 20 {
            return;
        }
        // The advice applies to whole pages: round the start up to a 2 MiB boundary.
        let aligned = (start + (2 << 20) - 1) & !((2 << 20) - 1);
        let end = start + len;
        if aligned >= end {
            return;
        }
        // SAFETY: the range lies inside an allocation the caller owns; MADV_HUGEPAGE does not
        // change its contents or validity, and a failure is harmless (the result is ignored).
        #[allow(unsafe_code)]
        unsafe {
            libc::madvise(
                aligned as *mut libc::c_void,
                end - aligned,
                libc::MADV_HUGEPAGE,
            );
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

/// A fixed-length array of `T`, every element all zero bytes at first (which `Zeroable` says is
/// a valid `T`), aligned to a page. On Unix the memory is an anonymous mapping; elsewhere a
/// zeroed `Vec`.
pub struct ZeroedArray<T: bytemuck::Zeroable> {
    #[cfg(unix)]
    ptr: std::ptr::NonNull<T>,
    #[cfg(unix)]
    len: usize,
    #[cfg(not(unix))]
    vec: Vec<T>,
}

// SAFETY: the array owns its elements as a `Vec<T>` would.
#[allow(unsafe_code)]
unsafe impl<T: bytemuck::Zeroable + Send> Send for ZeroedArray<T> {}
// SAFETY: shared access gives only `&T`, as for a `Vec<T>`.
#[allow(unsafe_code)]
unsafe impl<T: bytemuck::Zeroable + Sync> Sync for ZeroedArray<T> {}

impl<T: bytemuck::Zeroable> ZeroedArray<T> {
    /// `len` zeroed elements, or `None` when the memory cannot be had.
    pub fn new(len: usize) -> Option<ZeroedArray<T>> {
        let bytes = len.checked_mul(std::mem::size_of::<T>())?;
        if bytes == 0 || std::mem::align_of::<T>() > 4096 {
            return None;
        }
        #[cfg(unix)]
        {
            // SAFETY: a fresh private anonymous mapping; no existing memory is touched. The
            // result is checked against MAP_FAILED before use.
            #[allow(unsafe_code)]
            let p = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    bytes,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            if p == libc::MAP_FAILED {
                return None;
            }
            Some(ZeroedArray {
                ptr: std::ptr::NonNull::new(p as *mut T)?,
                len,
            })
        }
        #[cfg(not(unix))]
        {
            bytemuck::allocation::try_zeroed_vec(len)
                .ok()
                .map(|vec| ZeroedArray { vec })
        }
    }
}

impl<T: bytemuck::Zeroable> ZeroedArray<T> {
    /// Asks for huge pages (see [`advise_huge_pages`]). Worth it once the array is used all
    /// over: each huge page is made resident whole at its first write.
    pub fn advise_huge_pages(&self) {
        advise_huge_pages(self.as_ptr() as usize, std::mem::size_of_val::<[T]>(self));
    }
}

impl<T: bytemuck::Zeroable> std::ops::Deref for ZeroedArray<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        #[cfg(unix)]
        // SAFETY: `ptr` points to `len` initialised elements (zero bytes are a valid `T`, and
        // writes go through `&mut`), owned by `self` for the lifetime of the borrow.
        #[allow(unsafe_code)]
        unsafe {
            std::slice::from_raw_parts(self.ptr.as_ptr(), self.len)
        }
        #[cfg(not(unix))]
        &self.vec
    }
}

impl<T: bytemuck::Zeroable> std::ops::DerefMut for ZeroedArray<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        #[cfg(unix)]
        // SAFETY: as in `deref`, and `&mut self` makes the borrow unique.
        #[allow(unsafe_code)]
        unsafe {
            std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len)
        }
        #[cfg(not(unix))]
        &mut self.vec
    }
}

impl<T: bytemuck::Zeroable> Drop for ZeroedArray<T> {
    fn drop(&mut self) {
        #[cfg(unix)]
        // SAFETY: the mapping made in `new`, of this length, unmapped once. Elements need no
        // drop (`Zeroable` types used here are plain data; a `T` with a destructor would leak
        // its resources, never touch freed memory).
        #[allow(unsafe_code)]
        unsafe {
            libc::munmap(
                self.ptr.as_ptr() as *mut libc::c_void,
                self.len * std::mem::size_of::<T>(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_array_reads_zero_and_keeps_writes() {
        let mut a = ZeroedArray::<[u64; 16]>::new(100_000).unwrap();
        assert_eq!(a.len(), 100_000);
        assert_eq!(a.as_ptr() as usize % 4096, 0);
        assert!(a.iter().all(|x| x.iter().all(|&v| v == 0)));
        a[99_999][15] = 7;
        a[0][0] = 3;
        assert_eq!(a[99_999][15] + a[0][0], 10);
        assert!(ZeroedArray::<u64>::new(0).is_none());
        assert!(ZeroedArray::<u64>::new(usize::MAX).is_none());
    }
}
