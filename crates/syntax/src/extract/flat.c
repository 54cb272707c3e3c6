// A parsed tree's visible nodes in preorder, in one call.
//
// The same nodes, in the same order, with the same kind ids, field ids and
// positions as a `TSTreeCursor` walk (goto_first_child / goto_next_sibling /
// current_field_id); `tests` in flat.rs compare the two on every fixture and on
// arbitrary bytes. A cursor pays a call, an iterator rebuilt from its stack and
// a field-map search up that stack for every step; here each child is looked at
// once, its field found from its parent's map once.
//
// Built against the internal headers of the tree-sitter crate this binary links
// (build.rs takes them from the crate's own `src/`), so the layouts agree; the
// crate is pinned to the exact version this was written against (0.25.10, in
// Cargo.toml): a newer one may lay its nodes out otherwise.

#include <stdlib.h>
#include "tree_sitter/api.h"
#include "subtree.h"
#include "language.h"
#include "tree.h"

typedef struct {
  TSNode node;
  uint32_t end_byte;
  uint32_t end_row;
  uint32_t end_column;
  // The index of the first entry after this node's subtree.
  uint32_t next;
  uint32_t depth;
  // The node's kind id (`ts_node_symbol`: alias first, public symbol).
  uint16_t symbol;
  // The node's field in its parent (`ts_tree_cursor_current_field_id`).
  uint16_t field;
  uint8_t named;
  uint8_t missing;
  // 1 when `ts_node_child_by_field_id(node, f)` is, for every field `f`,
  // the node's first child listed with field `f` (see `cg_fields_listed`);
  // 0 when it may not be, and tree-sitter is asked.
  uint8_t fields_listed;
  uint8_t reserved;
  // The parent's index (UINT32_MAX for the root).
  uint32_t parent;
} CgFlatNode;

_Static_assert(sizeof(CgFlatNode) == 64, "flat.rs reads CgFlatNode as a 64-byte Raw");

typedef struct {
  // The parent's children (`ts_subtree_children`) and how many.
  const Subtree *children;
  uint32_t child_count;
  uint32_t child_index;
  uint32_t structural_child_index;
  // Where the first child starts, then where the last one listed ended (the
  // next starts after its own padding, as in tree-sitter's child iterator).
  Length position;
  const TSSymbol *alias_sequence;
  const TSFieldMapEntry *fields;
  const TSFieldMapEntry *fields_end;
  // The field of a hidden parent, which its children without one of their own
  // take (0 under a visible parent).
  TSFieldId inherited_field;
  uint32_t depth;
  // The entry of a visible parent, whose `next` is set when it is done; -1
  // for a hidden one.
  int64_t entry;
  // The entry of the nearest visible node at or above the parent: its
  // children's parent.
  uint32_t visible_parent;
} Frame;

static inline uint16_t cg_public_symbol(const TSLanguage *language, TSSymbol symbol) {
  if (symbol == ts_builtin_sym_error) return symbol;
  return language->public_symbol_map[symbol];
}

// Each thread's frame stack, kept between calls (a malloc per file was ~50,000
// instructions in a build's profile: glibc consolidating after the parser).
// `__thread` (GCC, Clang): tree-sitter-c reads C11's `_Thread_local` as an
// error, and cg indexes this file too.
static __thread Frame *cg_frames = NULL;
static __thread uint32_t cg_frames_capacity = 0;

// A large file's tree is beyond the caches when it is listed: reading each
// child's heap data was a miss waited on in turn (70% of cg_flatten's samples
// on mscorlib.cs, 2 MiB, on one load). From `CG_FAR_NODES` visible nodes the
// heap data of the next `CG_AHEAD` children of each frame is fetched ahead.
// Below, the tree is still in the caches after parsing, where prefetching
// only adds work.
#define CG_AHEAD 8
#define CG_FAR_NODES 16384

static inline void cg_prefetch(Subtree subtree) {
  if (!subtree.data.is_inline) {
    __builtin_prefetch(subtree.ptr);
    __builtin_prefetch((const char *)subtree.ptr + sizeof(SubtreeHeapData) - 1);
  }
}

// A frame for the children of `parent` (a subtree with children), pushed on
// the stack; false when memory ran out.
static inline bool cg_push(Frame **frames, uint32_t *size, uint32_t *capacity, const TSLanguage *language,
                           const SubtreeHeapData *parent, Length position, TSFieldId inherited_field,
                           uint32_t depth, int64_t entry, uint32_t visible_parent, bool ahead) {
  if (*size == *capacity) {
    uint32_t grown = *capacity * 2;
    Frame *more = realloc(*frames, grown * sizeof(Frame));
    if (!more) return false;
    *frames = more;
    *capacity = grown;
  }
  Frame *frame = &(*frames)[(*size)++];
  frame->children = (const Subtree *)parent - parent->child_count;
  frame->child_count = parent->child_count;
  frame->child_index = 0;
  frame->structural_child_index = 0;
  frame->position = position;
  frame->alias_sequence = ts_language_alias_sequence(language, parent->production_id);
  ts_language_field_map(language, parent->production_id, &frame->fields, &frame->fields_end);
  frame->inherited_field = inherited_field;
  frame->depth = depth;
  frame->entry = entry;
  frame->visible_parent = visible_parent;
  if (ahead) {
    uint32_t n = parent->child_count < CG_AHEAD ? parent->child_count : CG_AHEAD;
    for (uint32_t i = 0; i < n; i++) cg_prefetch(frame->children[i]);
  }
  return true;
}

// Whether a visible parent's field map answers `ts_node_child_by_field_id`
// as the list does (the first child whose own field, or whose hidden
// parent's, is the one asked for): not when an entry is inherited
// (tree-sitter then searches a hidden child's map) or two entries name the
// same child (a cursor gives it the first field only). The third case, a
// field from a hidden child's own map, is found as its nodes are listed.
static inline uint8_t cg_fields_listed(const Frame *frame) {
  for (const TSFieldMapEntry *map = frame->fields; map < frame->fields_end; map++) {
    if (map->inherited) return 0;
    for (const TSFieldMapEntry *before = frame->fields; before < map; before++) {
      if (before->child_index == map->child_index) return 0;
    }
  }
  return 1;
}

// The visible nodes of `root`'s subtree, `root` first, written to `out`.
// Returns how many, or UINT32_MAX when there are more than `capacity` (or
// memory ran out): the caller grows `out` and asks again.
//
// Each child's subtree is read once, inline (a leaf packed into the pointer)
// or on the heap, instead of through accessors that each test which.
static inline __attribute__((always_inline)) uint32_t cg_flatten_with(TSNode root, CgFlatNode *out, uint32_t capacity,
                                                                      bool ahead) {
  if (!root.id || capacity == 0) return 0;
  const TSTree *tree = root.tree;
  const TSLanguage *language = tree->language;
  const Subtree *root_subtree = (const Subtree *)root.id;
  uint32_t count = 0;

  Length start = {root.context[0], {root.context[1], root.context[2]}};
  Length root_end = length_add(start, ts_subtree_size(*root_subtree));
  TSSymbol root_alias = root.context[3];
  out[count++] = (CgFlatNode){
    .node = root,
    .end_byte = root_end.bytes,
    .end_row = root_end.extent.row,
    .end_column = root_end.extent.column,
    .next = 1,
    .depth = 0,
    .symbol = cg_public_symbol(language, root_alias ? root_alias : ts_subtree_symbol(*root_subtree)),
    .field = 0,
    .named = root_alias ? ts_language_symbol_metadata(language, root_alias).named
                        : ts_subtree_named(*root_subtree),
    .missing = ts_subtree_missing(*root_subtree),
    .fields_listed = 1,
    .parent = UINT32_MAX,
  };
  if (ts_subtree_child_count(*root_subtree) == 0) return count;

  if (!cg_frames) {
    cg_frames = malloc(64 * sizeof(Frame));
    if (!cg_frames) return UINT32_MAX;
    cg_frames_capacity = 64;
  }
  uint32_t size = 0, frames_capacity = cg_frames_capacity;
  Frame *frames = cg_frames;
  cg_push(&frames, &size, &frames_capacity, language, root_subtree->ptr, start, 0, 1, 0, 0, ahead);
  out[0].fields_listed = cg_fields_listed(&frames[0]);

  while (size > 0) {
    Frame *frame = &frames[size - 1];
    if (frame->child_index == frame->child_count) {
      if (frame->entry >= 0) out[frame->entry].next = count;
      size--;
      continue;
    }
    const Subtree *child = &frame->children[frame->child_index];
    if (ahead && frame->child_index + CG_AHEAD < frame->child_count) cg_prefetch(child[CG_AHEAD]);
    Subtree subtree = *child;
    const SubtreeHeapData *heap = NULL;
    bool extra, visible, named, missing;
    TSSymbol symbol;
    uint32_t child_count;
    Length extent, padding;
    if (subtree.data.is_inline) {
      extra = subtree.data.extra;
      visible = subtree.data.visible;
      named = subtree.data.named;
      missing = subtree.data.is_missing;
      symbol = subtree.data.symbol;
      child_count = 0;
      extent = (Length){subtree.data.size_bytes, {0, subtree.data.size_bytes}};
      padding = (Length){subtree.data.padding_bytes, {subtree.data.padding_rows, subtree.data.padding_columns}};
    } else {
      heap = subtree.ptr;
      extra = heap->extra;
      visible = heap->visible;
      named = heap->named;
      missing = heap->is_missing;
      symbol = heap->symbol;
      child_count = heap->child_count;
      extent = heap->size;
      padding = heap->padding;
    }
    Length position = frame->child_index > 0 ? length_add(frame->position, padding) : frame->position;
    TSSymbol alias = 0;
    TSFieldId field = 0;
    // A field from a hidden parent's own map.
    bool hidden_field = false;
    if (!extra) {
      if (frame->alias_sequence) alias = frame->alias_sequence[frame->structural_child_index];
      for (const TSFieldMapEntry *map = frame->fields; map < frame->fields_end; map++) {
        if (!map->inherited && map->child_index == frame->structural_child_index) {
          field = map->field_id;
          hidden_field = frame->entry < 0;
          break;
        }
      }
      if (!field) field = frame->inherited_field;
      frame->structural_child_index++;
    }
    Length end = length_add(position, extent);
    frame->child_index++;
    frame->position = end;
    uint32_t depth = frame->depth;
    uint32_t parent = frame->visible_parent;

    if (visible || alias) {
      if (count == capacity) {
        cg_frames = frames;
        cg_frames_capacity = frames_capacity;
        return UINT32_MAX;
      }
      uint32_t index = count++;
      out[index] = (CgFlatNode){
        .node = {{position.bytes, position.extent.row, position.extent.column, alias}, child, tree},
        .end_byte = end.bytes,
        .end_row = end.extent.row,
        .end_column = end.extent.column,
        .next = index + 1,
        .depth = depth,
        .symbol = cg_public_symbol(language, alias ? alias : symbol),
        .field = field,
        .named = alias ? ts_language_symbol_metadata(language, alias).named : named,
        .missing = missing,
        .fields_listed = 1,
        .parent = parent,
      };
      if (hidden_field) out[parent].fields_listed = 0;
      if (child_count > 0) {
        if (!cg_push(&frames, &size, &frames_capacity, language, heap, position, 0, depth + 1, index, index, ahead)) {
          cg_frames = frames;
          cg_frames_capacity = frames_capacity;
          return UINT32_MAX;
        }
        out[index].fields_listed = cg_fields_listed(&frames[size - 1]);
      }
    } else if (child_count > 0 && heap->visible_child_count > 0) {
      // Its nodes take the field (a hidden child of a hidden child).
      if (hidden_field) out[parent].fields_listed = 0;
      if (!cg_push(&frames, &size, &frames_capacity, language, heap, position, field, depth, -1, parent, ahead)) {
        cg_frames = frames;
        cg_frames_capacity = frames_capacity;
        return UINT32_MAX;
      }
    }
  }
  cg_frames = frames;
  cg_frames_capacity = frames_capacity;
  return count;
}

uint32_t cg_flatten(TSNode root, CgFlatNode *out, uint32_t capacity) {
  if (root.id && ts_subtree_visible_descendant_count(*(const Subtree *)root.id) > CG_FAR_NODES) {
    return cg_flatten_with(root, out, capacity, true);
  }
  return cg_flatten_with(root, out, capacity, false);
}

// How many visible nodes `root`'s subtree has, `root` included.
uint32_t cg_flat_count(TSNode root) {
  if (!root.id) return 0;
  return ts_subtree_visible_descendant_count(*(const Subtree *)root.id) + 1;
}

// `ts_node_child(parent, 0)` of a subtree with visible children: the first
// visible node under it, through hidden ones.
static const Subtree *cg_first_visible(const TSLanguage *language, const Subtree *parent) {
  for (;;) {
    const SubtreeHeapData *p = parent->ptr;
    const Subtree *children = (const Subtree *)p - p->child_count;
    const TSSymbol *aliases = ts_language_alias_sequence(language, p->production_id);
    uint32_t structural = 0;
    const Subtree *deeper = NULL;
    for (uint32_t i = 0; i < p->child_count && !deeper; i++) {
      const Subtree *child = &children[i];
      TSSymbol alias = 0;
      if (!ts_subtree_extra(*child)) {
        if (aliases) alias = aliases[structural];
        structural++;
      }
      if (ts_subtree_visible(*child) || alias) return child;
      if (ts_subtree_visible_child_count(*child) > 0) deeper = child;
    }
    if (!deeper) return NULL;
    parent = deeper;
  }
}

static const Subtree *cg_field_child(const TSLanguage *language, const Subtree *self, TSFieldId field_id) {
recur:
  if (!field_id || ts_subtree_visible_child_count(*self) == 0) return NULL;
  const SubtreeHeapData *p = self->ptr;
  const TSFieldMapEntry *map, *map_end;
  ts_language_field_map(language, p->production_id, &map, &map_end);
  if (map == map_end) return NULL;
  while (map->field_id < field_id) {
    map++;
    if (map == map_end) return NULL;
  }
  while (map_end[-1].field_id > field_id) {
    map_end--;
    if (map == map_end) return NULL;
  }
  const Subtree *children = (const Subtree *)p - p->child_count;
  const TSSymbol *aliases = ts_language_alias_sequence(language, p->production_id);
  uint32_t structural = 0;
  for (uint32_t i = 0; i < p->child_count; i++) {
    const Subtree *child = &children[i];
    if (ts_subtree_extra(*child)) continue;
    TSSymbol alias = aliases ? aliases[structural] : 0;
    uint32_t index = structural++;
    if (index < map->child_index) continue;
    if (map->inherited) {
      // The field is one of this hidden child's own.
      if (map + 1 == map_end) {
        self = child;
        goto recur;
      }
      const Subtree *found = cg_field_child(language, child, field_id);
      if (found) return found;
      map++;
      if (map == map_end) return NULL;
    } else if (ts_subtree_visible(*child) || alias) {
      return child;
    } else if (ts_subtree_visible_child_count(*child) > 0) {
      return cg_first_visible(language, child);
    } else {
      map++;
      if (map == map_end) return NULL;
    }
  }
  return NULL;
}

// The id of `ts_node_child_by_field_id(node, field_id)` (NULL for none): the
// same search over the same field maps, without the position tree-sitter
// works out for every child it passes (the caller has the positions).
const void *cg_child_by_field_id(TSNode node, TSFieldId field_id) {
  if (!node.id) return NULL;
  return cg_field_child(node.tree->language, (const Subtree *)node.id, field_id);
}
