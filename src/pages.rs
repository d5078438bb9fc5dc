//! Giving the operating system back the memory of a buffer's part that is
//! no longer used, while the rest of the buffer is.
//!
//! A big program's entry block is one buffer of statements, megabytes for a
//! megabyte of source, that the lowering consumes from the front while the
//! module grows. A `Vec`'s buffer can only be freed whole, and moving what
//! is left to a smaller buffer needs both at once: for a 1 MB program that
//! copy was the peak of the compile (docs/performance.md, "Session 10
//! (memory)"). Telling the kernel that the whole pages already consumed are
//! not needed (`madvise(MADV_DONTNEED)`) frees them in place.

use std::ops::Range;

/// The front of a buffer that is consumed in order, and how much of it has
/// been given back.
pub(crate) struct ReleasedPrefix {
    /// The first byte not yet given back.
    released_to: usize,
    page: usize,
}

/// Pages are given back in runs of at least this many bytes, so the system
/// calls stay few (one per 256 KiB of statements lowered).
const RELEASE_STEP: usize = 256 * 1024;

impl ReleasedPrefix {
    pub(crate) fn of<T>(buffer: &[T]) -> ReleasedPrefix {
        ReleasedPrefix {
            released_to: buffer.as_ptr() as usize,
            page: page_size(),
        }
    }

    /// `rest` is what is left of the buffer: everything before it has been
    /// moved out and is never read again.
    pub(crate) fn release_before<T>(&mut self, rest: &[T]) {
        let consumed_to = rest.as_ptr() as usize;
        if self.page == 0 || consumed_to < self.released_to + RELEASE_STEP {
            return;
        }
        // Whole pages only: the allocator may keep its own data just
        // before the buffer, and the first element left may share a page
        // with the last one consumed.
        let from = self.released_to.next_multiple_of(self.page);
        let to = consumed_to - consumed_to % self.page;
        if to > from {
            release(from..to);
            self.released_to = to;
        }
    }
}

fn page_size() -> usize {
    // SAFETY: sysconf only reads a system value.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size).unwrap_or(0)
}

/// Gives back the pages of `bytes`, which must be page-aligned and hold
/// nothing that is read again.
fn release(bytes: Range<usize>) {
    // SAFETY: the range is whole pages inside a buffer this thread owns,
    // whose values there were moved out and are never read again
    // (`release_before`'s contract); no reference points into it. After
    // MADV_DONTNEED a private anonymous page reads as zeros the next time
    // it is touched (a freed buffer's pages may be touched by the
    // allocator), which is as good as any other uninitialised bytes. A
    // failure (an allocator's memory that cannot be advised) leaves the
    // pages as they were, so the result is not looked at.
    unsafe {
        libc::madvise(
            bytes.start as *mut libc::c_void,
            bytes.end - bytes.start,
            libc::MADV_DONTNEED,
        );
    }
}
