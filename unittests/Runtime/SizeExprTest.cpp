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

/// Parses and evaluates \p text with sampleSizes(); fails the test on error.
static int64_t eval(const std::string &text) {
  SizeExpr expr;
  std::string error = SizeExpr::parse(text, expr);
  EXPECT_EQ(error, "") << text;
  int64_t value = -1;
  error = expr.evaluate(sampleSizes(), value);
  EXPECT_EQ(error, "") << text;
  return value;
}

/// Returns the parse error of \p text.
static std::string parseError(const std::string &text) {
  SizeExpr expr;
  return SizeExpr::parse(text, expr);
}

/// Returns the evaluation error of \p text (which must parse).
static std::string evalError(const std::string &text,
                             SizeBindings sizes = sampleSizes()) {
  SizeExpr expr;
  EXPECT_EQ(SizeExpr::parse(text, expr), "") << text;
  int64_t value = 0;
  return expr.evaluate(sizes, value);
}

TEST(SizeExprTest, TermsAndSymbols) {
  EXPECT_EQ(eval("128"), 128);
  EXPECT_EQ(eval("B"), 2);
  EXPECT_EQ(eval("H"), 8);
  EXPECT_EQ(eval("Hkv"), 2);
  EXPECT_EQ(eval("Nq"), 100);
  EXPECT_EQ(eval("Nk"), 300);
  EXPECT_EQ(eval("  Nk  "), 300);
}

TEST(SizeExprTest, LeftToRightWithoutPrecedence) {
  EXPECT_EQ(eval("2+3*4"), 20);
  EXPECT_EQ(eval("2 + (3 * 4)"), 14);
  EXPECT_EQ(eval("B*H*Nq"), 1600);
  EXPECT_EQ(eval("Nk-Nq*2"), 400);
  EXPECT_EQ(eval("Nk - (Nq * 2)"), 100);
}

TEST(SizeExprTest, CeilingDivision) {
  EXPECT_EQ(eval("cdiv(Nk,64)"), 5);
  EXPECT_EQ(eval("cdiv(Nq, 100)"), 1);
  EXPECT_EQ(eval("cdiv(0, 7)"), 0);
  EXPECT_EQ(eval("cdiv(Nq + 27, 64) * 64"), 128);
  EXPECT_EQ(eval("cdiv(cdiv(Nk, 2), 4)"), 38);
  EXPECT_EQ(eval("(cdiv(Nq,64))"), 2);
}

TEST(SizeExprTest, Constants) {
  SizeExpr expr = SizeExpr::constant(64);
  EXPECT_TRUE(expr.isConstant());
  EXPECT_EQ(expr.text(), "64");
  int64_t value = 0;
  EXPECT_EQ(expr.evaluate(sampleSizes(), value), "");
  EXPECT_EQ(value, 64);
  ASSERT_EQ(SizeExpr::parse("cdiv(4, 2) + Nq", expr), "");
  EXPECT_FALSE(expr.isConstant());
  EXPECT_EQ(expr.text(), "cdiv(4, 2) + Nq");
}

TEST(SizeExprTest, Symbols) {
  SizeExpr expr = SizeExpr::constant(64);
  EXPECT_TRUE(expr.symbols().empty());
  ASSERT_EQ(SizeExpr::parse("cdiv(Nk, 64) * Hkv * B + Nk", expr), "");
  EXPECT_EQ(expr.symbols(), (std::vector<std::string>{"B", "Hkv", "Nk"}));
}

TEST(SizeExprTest, SymbolsAndLiteralsAlone) {
  SizeExpr expr;
  ASSERT_EQ(SizeExpr::parse(" (B) ", expr), "");
  EXPECT_TRUE(expr.isSymbol("B"));
  EXPECT_FALSE(expr.isSymbol("H"));
  EXPECT_FALSE(expr.isLiteral(1));
  ASSERT_EQ(SizeExpr::parse("B * 1", expr), "");
  EXPECT_FALSE(expr.isSymbol("B"));
  EXPECT_FALSE(expr.isLiteral(1));
  ASSERT_EQ(SizeExpr::parse("1", expr), "");
  EXPECT_TRUE(expr.isLiteral(1));
  EXPECT_FALSE(expr.isLiteral(2));
  EXPECT_TRUE(SizeExpr::constant(1).isLiteral(1));
  EXPECT_FALSE(SizeExpr().isSymbol("B"));
  EXPECT_FALSE(SizeExpr().isLiteral(0));
}

TEST(SizeExprTest, ParseErrors) {
  EXPECT_EQ(parseError(""),
            "invalid size expression '': expected a term at column 1, got "
            "the end");
  EXPECT_EQ(parseError("cdiv(Nk,)"),
            "invalid size expression 'cdiv(Nk,)': expected a term at column "
            "9, got ')'");
  EXPECT_EQ(parseError("Nq Nk"),
            "invalid size expression 'Nq Nk': expected '+', '-', '*' or the "
            "end at column 4, got 'N'");
  EXPECT_EQ(parseError("Nq/2"),
            "invalid size expression 'Nq/2': expected '+', '-', '*' or the "
            "end at column 3, got '/'");
  EXPECT_EQ(parseError("(Nq"),
            "invalid size expression '(Nq': expected ')' at column 4, got the "
            "end");
  EXPECT_EQ(parseError("cdiv Nq"),
            "invalid size expression 'cdiv Nq': expected '(' at column 6, got "
            "'N'");
  EXPECT_EQ(parseError("cdiv(Nq 2)"),
            "invalid size expression 'cdiv(Nq 2)': expected ',' at column 9, "
            "got '2'");
  EXPECT_EQ(parseError("Nq +"),
            "invalid size expression 'Nq +': expected a term at column 5, got "
            "the end");
  EXPECT_EQ(parseError("-Nq"),
            "invalid size expression '-Nq': expected a term at column 1, got "
            "'-'");
  EXPECT_EQ(parseError("N * 2"),
            "invalid size expression 'N * 2': unknown symbol 'N' at column 1 "
            "(expected B, H, Hkv, Nq, Nk or cdiv)");
  EXPECT_EQ(parseError("2 * D"),
            "invalid size expression '2 * D': unknown symbol 'D' at column 5 "
            "(expected B, H, Hkv, Nq, Nk or cdiv)");
  EXPECT_EQ(parseError("99999999999999999999"),
            "invalid size expression '99999999999999999999': integer literal "
            "overflows 64 bits at column 1");
}

TEST(SizeExprTest, EvaluationErrors) {
  EXPECT_EQ(evalError("Nq - Nk"),
            "size expression 'Nq - Nk' is negative (-200) at column 4 with "
            "B=2 H=8 Hkv=2 Nq=100 Nk=300");
  // A negative intermediate value is an error even if the end is not.
  EXPECT_EQ(evalError("Nq - Nk + 500"),
            "size expression 'Nq - Nk + 500' is negative (-200) at column 4 "
            "with B=2 H=8 Hkv=2 Nq=100 Nk=300");
  EXPECT_EQ(evalError("cdiv(Nq, Nk - 300)"),
            "size expression 'cdiv(Nq, Nk - 300)' divides by zero at column 1 "
            "with B=2 H=8 Hkv=2 Nq=100 Nk=300");
  EXPECT_EQ(evalError("9223372036854775807 + B"),
            "size expression '9223372036854775807 + B' overflows 64 bits at "
            "column 21 with B=2 H=8 Hkv=2 Nq=100 Nk=300");
  EXPECT_EQ(evalError("4611686018427387904 * B"),
            "size expression '4611686018427387904 * B' overflows 64 bits at "
            "column 21 with B=2 H=8 Hkv=2 Nq=100 Nk=300");
  SizeBindings negative = sampleSizes();
  negative.seqQ = -1;
  EXPECT_EQ(evalError("Nq", negative),
            "size expression 'Nq' reads the negative size Nq=-1 at column 1 "
            "with B=2 H=8 Hkv=2 Nq=-1 Nk=300");
}
