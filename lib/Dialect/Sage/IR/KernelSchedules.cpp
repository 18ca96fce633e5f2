//===- KernelSchedules.cpp - measured tiles of the attention kernel -------===//
//
// The built-in rows and the reader of tune_attention.py's JSON table
// (docs/Tuning.md).
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/KernelSchedules.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::sage;

const ScheduleTable &ScheduleTable::getBuiltin() {
  // Measured on the H200 at N = 16k, B = 4, H = 32, f16
  // (benchmarks/results/2026-12-03-h200-tuning.md); rows for one key at
  // several lengths keep the longest.
  static const ScheduleTable table{{
#define SAGE_SCHEDULE(chip, d, causal, smoothQ, blockQ, blockK, ws, stages,    \
                      overlap, ctas, turns)                                    \
  {{chip, d, causal, smoothQ},                                                 \
   {blockQ, blockK, ws, stages, overlap, ctas, turns}},
#include "KernelSchedules.def"
#undef SAGE_SCHEDULE
  }};
  return table;
}

std::optional<KernelSchedule>
ScheduleTable::lookup(const ScheduleKey &key) const {
  for (const ScheduleRow &row : rows)
    if (row.key == key)
      return row.schedule;
  return std::nullopt;
}

LogicalResult ScheduleTable::readOption(MLIRContext *ctx, StringRef path,
                                        std::optional<ScheduleTable> &table) {
  table.reset();
  if (path.empty())
    return success();
  llvm::Expected<ScheduleTable> read = ScheduleTable::read(path);
  if (!read)
    return emitError(UnknownLoc::get(ctx)) << llvm::toString(read.takeError());
  table = std::move(*read);
  return success();
}

llvm::Expected<ScheduleTable> ScheduleTable::read(StringRef path) {
  auto fail = [](const std::string &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    return fail("cannot read the tuning table '" + path.str() +
                "': " + buffer.getError().message());
  }
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json) {
    return fail("the tuning table '" + path.str() +
                "' is not JSON: " + llvm::toString(json.takeError()));
  }
  const llvm::json::Object *top = json->getAsObject();
  const llvm::json::Array *rows = top ? top->getArray("rows") : nullptr;
  if (!top || top->getString("format") != "sage-tuning-table" || !rows ||
      top->getInteger("version") != 1) {
    return fail("the tuning table '" + path.str() +
                "' is not a sage-tuning-table of version 1 (tune_attention.py "
                "--table)");
  }
  ScheduleTable table;
  SmallVector<int64_t> lengths;
  for (auto [index, value] : llvm::enumerate(*rows)) {
    const llvm::json::Object *row = value.getAsObject();
    auto integer = [&](StringRef name) -> std::optional<int64_t> {
      return row ? row->getInteger(name) : std::nullopt;
    };
    auto boolean = [&](StringRef name) -> std::optional<bool> {
      return row ? row->getBoolean(name) : std::nullopt;
    };
    std::optional<StringRef> chip = row ? row->getString("chip") : std::nullopt;
    std::optional<StringRef> smooth =
        row ? row->getString("smooth") : std::nullopt;
    std::optional<int64_t> headDim = integer("head_dim"), n = integer("n"),
                           blockQ = integer("block_q"),
                           blockK = integer("block_k");
    std::optional<bool> causal = boolean("causal"),
                        ws = boolean("warp_specialize");
    if (!chip || !smooth || !headDim || !n || !blockQ || !blockK || !causal ||
        !ws || (*smooth != "k" && *smooth != "qk")) {
      return fail(
          "row " + std::to_string(index) + " of the tuning table '" +
          path.str() +
          "' needs chip, head_dim, causal, smooth (k or qk), n, block_q, "
          "block_k and warp_specialize");
    }
    // The tiles the decomposition accepts (whole 16-row warp tiles, 8-key
    // MMA tiles); the lowering names any it cannot build.
    if (*headDim <= 0 || *blockQ <= 0 || *blockQ % 16 != 0 || *blockK <= 0 ||
        *blockK % 8 != 0) {
      return fail("row " + std::to_string(index) + " of the tuning table '" +
                  path.str() + "' has head_dim " + std::to_string(*headDim) +
                  ", block_q " + std::to_string(*blockQ) + ", block_k " +
                  std::to_string(*blockK) +
                  "; expected a positive head_dim, block_q a positive multiple "
                  "of 16 and block_k of 8");
    }
    // Optional columns (tables written before them: two stages, in turn,
    // the lowering's CTAs an SM).
    std::optional<int64_t> stages =
        row->get("kv_stages") ? integer("kv_stages") : 2;
    std::optional<bool> overlap =
        row->get("overlap_softmax") ? boolean("overlap_softmax") : false;
    std::optional<int64_t> ctas =
        row->get("ctas_per_sm") ? integer("ctas_per_sm") : 0;
    std::optional<bool> turns =
        row->get("warpgroup_turns") ? boolean("warpgroup_turns") : false;
    auto badColumn = [&](StringRef column, StringRef expected) {
      return fail("row " + std::to_string(index) + " of the tuning table '" +
                  path.str() + "' has " + column.str() + " that is not " +
                  expected.str());
    };
    if (!stages || *stages < 2)
      return badColumn("a kv_stages", "an integer of at least 2");
    if (!overlap)
      return badColumn("an overlap_softmax", "a boolean");
    if (!ctas || *ctas < 0)
      return badColumn("a ctas_per_sm", "an integer of at least 0");
    if (!turns)
      return badColumn("a warpgroup_turns", "a boolean");
    ScheduleRow parsed{
        {chip->str(), *headDim, *causal, *smooth == "qk"},
        {*blockQ, *blockK, *ws, *stages, *overlap, *ctas, *turns}};
    // A key measured at several lengths keeps its longest.
    auto same = llvm::find_if(table.rows, [&](const ScheduleRow &other) {
      return other.key == parsed.key;
    });
    if (same == table.rows.end()) {
      table.rows.push_back(parsed);
      lengths.push_back(*n);
    } else if (*n > lengths[same - table.rows.begin()]) {
      *same = parsed;
      lengths[same - table.rows.begin()] = *n;
    }
  }
  return table;
}
