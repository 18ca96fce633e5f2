//===- SizeExprTest.cpp - Size expressions of launch plans ----------------===//

#include "sage/Runtime/SizeExpr.h"

#include "gtest/gtest.h"

using namespace sage::rt;

/// Sizes used by most cases: B=2 H=8 Hkv=2 Nq=100 Nk=300.
static SizeBindings sampleSizes() {
  SizeBindings sizes;
  sizes.batch = 2;
  sizes.heads = 8;
  sizes.headsKV = 2;
  sizes.seqQ = 100;
  sizes.seqK = 300;
  return sizes;
}

static SizeExpr C(int64_t value) { return SizeExpr::constant(value); }

static SizeExpr sym(const char *name) {
  std::optional<SizeExpr> expr = SizeExpr::symbol(name);
  EXPECT_TRUE(expr.has_value()) << name;
  return expr.value_or(SizeExpr());
}

/// Evaluates \p expr with \p sizes; fails the test on error.
static int64_t eval(const SizeExpr &expr, SizeBindings sizes = sampleSizes()) {
  int64_t value = -1;
  EXPECT_EQ(expr.evaluate(sizes, value), "") << expr.text();
  return value;
}

static std::string evalError(const SizeExpr &expr,
                             SizeBindings sizes = sampleSizes()) {
  int64_t value = 0;
  return expr.evaluate(sizes, value);
}

TEST(SizeExprTest, TermsAndSymbols) {
  EXPECT_EQ(eval(SizeExpr::constant(128)), 128);
  EXPECT_EQ(eval(sym("B")), 2);
  EXPECT_EQ(eval(sym("H")), 8);
  EXPECT_EQ(eval(sym("Hkv")), 2);
  EXPECT_EQ(eval(sym("Nq")), 100);
  EXPECT_EQ(eval(sym("Nk")), 300);
  EXPECT_FALSE(SizeExpr::symbol("N").has_value());
  EXPECT_FALSE(SizeExpr::symbol("cdiv(Nq,64)").has_value());
}

TEST(SizeExprTest, CeilingDivisionAndProducts) {
  EXPECT_EQ(eval(SizeExpr::ceilDiv(sym("Nk"), C(64))), 5);
  EXPECT_EQ(eval(SizeExpr::ceilDiv(sym("Nq"), C(100))), 1);
  EXPECT_EQ(eval(SizeExpr::ceilDiv(SizeExpr::constant(0), C(7))), 0);
  EXPECT_EQ(eval(SizeExpr::mul(SizeExpr::ceilDiv(sym("Nq"), C(64)), C(64))),
            128);
  EXPECT_EQ(eval(SizeExpr::ceilDiv(SizeExpr::ceilDiv(sym("Nk"), C(2)), C(4))),
            38);
  EXPECT_EQ(eval(SizeExpr::mul(sym("B"), C(0))), 0);
}

TEST(SizeExprTest, Text) {
  EXPECT_EQ(SizeExpr::constant(64).text(), "64");
  EXPECT_EQ(sym("Hkv").text(), "Hkv");
  EXPECT_EQ(SizeExpr::mul(SizeExpr::ceilDiv(sym("Nq"), C(64)), C(64)).text(),
            "cdiv(Nq,64)*64");
}

TEST(SizeExprTest, Symbols) {
  SizeExpr constant = SizeExpr::constant(64);
  EXPECT_TRUE(constant.isConstant());
  EXPECT_TRUE(constant.symbols().empty());
  SizeExpr blocks = SizeExpr::mul(SizeExpr::ceilDiv(sym("Nk"), C(64)), C(4));
  EXPECT_FALSE(blocks.isConstant());
  EXPECT_EQ(blocks.symbols(), (std::vector<std::string>{"Nk"}));
  EXPECT_TRUE(SizeExpr::ceilDiv(SizeExpr::constant(9), C(2)).isConstant());
}

TEST(SizeExprTest, SymbolsAndLiteralsAlone) {
  EXPECT_TRUE(sym("B").isSymbol("B"));
  EXPECT_FALSE(sym("B").isSymbol("H"));
  EXPECT_FALSE(sym("B").isLiteral(1));
  EXPECT_FALSE(SizeExpr::mul(sym("B"), C(1)).isSymbol("B"));
  EXPECT_FALSE(SizeExpr::mul(SizeExpr::constant(1), C(1)).isLiteral(1));
  EXPECT_TRUE(SizeExpr::constant(1).isLiteral(1));
  EXPECT_FALSE(SizeExpr::constant(1).isLiteral(2));
  EXPECT_FALSE(SizeExpr().isSymbol("B"));
  EXPECT_TRUE(SizeExpr().isLiteral(0));
}

TEST(SizeExprTest, SizesOfSizes) {
  // Hand-written plans may multiply two sizes (a row stride).
  SizeExpr stride = SizeExpr::mul(SizeExpr::mul(sym("Nk"), sym("Hkv")), C(128));
  EXPECT_EQ(eval(stride), 300 * 2 * 128);
  EXPECT_EQ(stride.text(), "Nk*Hkv*128");
  EXPECT_EQ(stride.symbols(), (std::vector<std::string>{"Hkv", "Nk"}));
  EXPECT_EQ(eval(SizeExpr::ceilDiv(sym("Nk"), sym("Nq"))), 3);
}

TEST(SizeExprTest, EvaluationErrors) {
  EXPECT_EQ(evalError(SizeExpr::mul(sym("B"), C(4611686018427387904))),
            "size expression 'B*4611686018427387904' overflows 64 bits with "
            "B=2 H=8 Hkv=2 Nq=100 Nk=300");
  EXPECT_EQ(
      evalError(SizeExpr::ceilDiv(sym("Nq"), SizeExpr::mul(sym("B"), C(0)))),
      "size expression 'cdiv(Nq,B*0)' divides by zero with B=2 H=8 "
      "Hkv=2 Nq=100 Nk=300");
  SizeBindings negative = sampleSizes();
  negative.seqQ = -1;
  EXPECT_EQ(evalError(SizeExpr::ceilDiv(sym("Nq"), C(64)), negative),
            "size expression 'Nq' reads the negative size Nq=-1 with B=2 "
            "H=8 Hkv=2 Nq=-1 Nk=300");
}
