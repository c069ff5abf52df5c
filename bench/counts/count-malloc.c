/* A malloc whose cost does not depend on the process's history, for the counted processes only
 * (LD_PRELOAD in the callgrind and strace processes; built on demand by count-malloc.js). glibc's
 * malloc searches and splits free chunks, so what a call costs, the size it gives and the address
 * (hence the alignment a memcmp on the buffer pays for) all follow what was freed before, and two
 * processes of the same history did not agree on them (docs/counting.md). Here every block is a
 * multiple of 64 bytes with the caller's pointer 16 bytes in, taken from a free list of its size or
 * bumped from a 256 MB mapping; nothing is ever split or merged. Every call costs the same
 * instructions whatever ran before, and a pointer's offset in its cache line is always 16.
 * A block's offset in its page still follows the history, and glibc's AVX2 strcmp takes a slower
 * path where the two pointers' page offsets, OR-ed, pass 4096 - 128, so strcmp is here too: one
 * byte at a time, its cost set by the strings alone (docs/counting.md). */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define UNIT 64                      /* every block's size is a multiple of this */
#define HEAD 16                      /* the header before a pointer: its block's size and offset */
#define LARGE ((size_t)32 << 20)     /* blocks from here on are mappings of their own, as glibc's mmap_threshold */
#define REGION ((size_t)256 << 20)   /* bump regions are mapped this large, as glibc's top_pad */
#define CLASSES (LARGE / UNIT)

typedef struct {
  size_t size;   /* the block's bytes */
  size_t offset; /* from the block's start to the pointer */
} head;

/* Each thread's own: its freed blocks per size class (linked through their first word), and its
 * bump region. A thread's addresses then follow its own calls only, not when another thread ran:
 * a block another thread frees goes to that thread's lists. No lock: nothing is shared. */
typedef struct {
  void *lists[CLASSES];
  char *bump, *end;
} arena;

static __thread arena *mine __attribute__((tls_model("initial-exec")));

static void *map(size_t n) {
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

/* A block of at least n bytes, its size in *size; NULL when out of memory. */
static char *block(size_t n, size_t *size) {
  if (n >= LARGE - UNIT) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    *size = (n + page - 1) / page * page;
    return map(*size);
  }
  size_t c = (n + UNIT - 1) / UNIT;
  *size = c * UNIT;
  arena *a = mine;
  if (!a && !(a = mine = map(sizeof(arena)))) return NULL;
  char *b = a->lists[c];
  if (b) {
    a->lists[c] = *(void **)b;
    return b;
  }
  if ((size_t)(a->end - a->bump) < *size) {
    char *r = map(REGION);
    if (!r) return NULL;
    a->bump = r;
    a->end = r + REGION;
  }
  b = a->bump;
  a->bump += *size;
  return b;
}

/* n bytes whose pointer is a multiple of align (a power of two, at least 16). */
static void *allocate(size_t n, size_t align) {
  if (n > SIZE_MAX / 2 || align > SIZE_MAX / 4) {
    errno = ENOMEM;
    return NULL;
  }
  size_t size;
  char *b = block(n + HEAD + (align > HEAD ? align : 0), &size);
  if (!b) {
    errno = ENOMEM;
    return NULL;
  }
  char *p = b + HEAD;
  if (align > HEAD) p = (char *)(((uintptr_t)b + HEAD + align - 1) & ~(uintptr_t)(align - 1));
  head *h = (head *)(p - HEAD);
  h->size = size;
  h->offset = (size_t)(p - b);
  return p;
}

void *malloc(size_t n) { return allocate(n, HEAD); }

void free(void *p) {
  if (!p) return;
  head *h = (head *)((char *)p - HEAD);
  char *b = (char *)p - h->offset;
  size_t size = h->size;
  arena *a = mine;
  if (size >= LARGE || (!a && !(a = mine = map(sizeof(arena))))) {
    if (size >= LARGE) munmap(b, size);
    return;
  }
  *(void **)b = a->lists[size / UNIT];
  a->lists[size / UNIT] = b;
}

size_t malloc_usable_size(void *p) {
  if (!p) return 0;
  head *h = (head *)((char *)p - HEAD);
  return h->size - h->offset;
}

void *calloc(size_t count, size_t n) {
  if (n && count > SIZE_MAX / n) {
    errno = ENOMEM;
    return NULL;
  }
  void *p = malloc(count * n);
  if (p) memset(p, 0, count * n); /* always: whether a block was used before is history */
  return p;
}

void *realloc(void *p, size_t n) {
  if (!p) return malloc(n);
  if (!n) {
    free(p);
    return NULL;
  }
  size_t has = malloc_usable_size(p);
  if (n <= has) return p;
  void *q = malloc(n);
  if (q) {
    memcpy(q, p, has);
    free(p);
  }
  return q;
}

void *reallocarray(void *p, size_t count, size_t n) {
  if (n && count > SIZE_MAX / n) {
    errno = ENOMEM;
    return NULL;
  }
  return realloc(p, count * n);
}

void *memalign(size_t align, size_t n) {
  if (align & (align - 1)) {
    errno = EINVAL;
    return NULL;
  }
  return allocate(n, align < HEAD ? HEAD : align);
}

void *aligned_alloc(size_t align, size_t n) { return memalign(align, n); }

int posix_memalign(void **out, size_t align, size_t n) {
  if (align < sizeof(void *) || (align & (align - 1))) return EINVAL;
  void *p = allocate(n, align < HEAD ? HEAD : align);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}

void *valloc(size_t n) { return memalign((size_t)sysconf(_SC_PAGESIZE), n); }

void *pvalloc(size_t n) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  return memalign(page, (n + page - 1) / page * page);
}

/* The strings' bytes compared in order as unsigned chars, as glibc's: what it costs depends on
 * how many bytes match, not on where the strings lie. */
int strcmp(const char *a, const char *b) {
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  while (*x && *x == *y) x++, y++;
  return *x - *y;
}
