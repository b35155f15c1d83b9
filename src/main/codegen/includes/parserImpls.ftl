<#--
  Tessera's table definitions, added to Calcite's grammar: CREATE TABLE (columns, or AS query), CREATE VIEW, DROP
  TABLE and DROP VIEW, built as Calcite's DDL nodes (org.apache.calcite.sql.ddl). A default, a CHECK and a generated
  column are kept (sql/ColumnDefaults, sql/CheckConstraints, sql/GeneratedColumns).
  ALTER TABLE's actions are read into sql/AlterTableNode.
  INSERT is Tessera's (pom.xml takes Calcite's out of the template): DuckDB's INSERT OR REPLACE / OR IGNORE, BY NAME
  or BY POSITION and ON CONFLICT, kept by sql/InsertClauses.
-->

/** {@code IF NOT EXISTS}, or nothing. */
boolean TesseraIfNotExists() :
{
}
{
    LOOKAHEAD(3) <IF> <NOT> <EXISTS> { return true; }
|
    { return false; }
}

/** {@code IF EXISTS}, or nothing. */
boolean TesseraIfExists() :
{
}
{
    LOOKAHEAD(2) <IF> <EXISTS> { return true; }
|
    { return false; }
}

/**
 * A column (name, type, NULL or NOT NULL, PRIMARY KEY, UNIQUE, CHECK, REFERENCES, a default or generated value), a
 * name alone, or a table constraint.
 */
void TesseraTableElement(List<SqlNode> list) :
{
    final SqlIdentifier id;
    SqlDataTypeSpec type;
    boolean nullable;
    final List<SqlNode> keys = new ArrayList<SqlNode>();
    Span k;
    SqlNode value = null;
    ColumnStrategy strategy = null;
    SqlIdentifier constraint = null;
    final SqlNodeList columns;
    final SqlNode condition;
    final boolean[] stored = { false };
    final Span s = Span.of();
}
{
    LOOKAHEAD(2) id = SimpleIdentifier()
    (
        // a generated column without a type (sql/GeneratedColumns gives it its expression's)
        LOOKAHEAD(2) value = TesseraGeneratedAs(stored) {
            strategy = stored[0] ? ColumnStrategy.STORED : ColumnStrategy.VIRTUAL;
            list.add(SqlDdlNodes.column(s.add(id).end(this), id, null, value, strategy));
        }
    |
        type = DataType()
        nullable = NullableOptDefaultTrue()
        (
            // a column's PRIMARY KEY or UNIQUE, a key of that one column, and NOT NULL after it
            <PRIMARY> { k = span(); } <KEY> {
                keys.add(SqlDdlNodes.primary(k.end(this), null, new SqlNodeList(List.of(id), id.getParserPosition())));
            }
        |
            <UNIQUE> {
                keys.add(SqlDdlNodes.unique(getPos(), null, new SqlNodeList(List.of(id), id.getParserPosition())));
            }
        |
            <NOT> <NULL> { nullable = false; }
        |
            TesseraColumnCheck(keys)
        |
            // a column's REFERENCES, a foreign key of that one column
            TesseraReferences(Span.of(), new SqlNodeList(List.of(id), id.getParserPosition()), keys)
        )*
        [
            <DEFAULT_> value = Expression(ExprContext.ACCEPT_SUB_QUERY) {
                strategy = ColumnStrategy.DEFAULT;
            }
            (
                // the same constraints after the DEFAULT, in any order, as DuckDB and PostgreSQL take them
                <PRIMARY> { k = span(); } <KEY> {
                    keys.add(SqlDdlNodes.primary(k.end(this), null,
                        new SqlNodeList(List.of(id), id.getParserPosition())));
                }
            |
                <UNIQUE> {
                    keys.add(SqlDdlNodes.unique(getPos(), null, new SqlNodeList(List.of(id), id.getParserPosition())));
                }
            |
                <NOT> <NULL> { nullable = false; }
            |
                TesseraColumnCheck(keys)
            |
                TesseraReferences(Span.of(), new SqlNodeList(List.of(id), id.getParserPosition()), keys)
            )*
        |
            value = TesseraGeneratedAs(stored) {
                strategy = stored[0] ? ColumnStrategy.STORED : ColumnStrategy.VIRTUAL;
                if (!nullable || !keys.isEmpty()) {
                    throw new ParseException("Constraints on generated columns are not supported yet at line "
                        + value.getParserPosition().getLineNum() + ", column "
                        + value.getParserPosition().getColumnNum());
                }
            }
        ]
        {
            if (strategy == null) {
                strategy = nullable ? ColumnStrategy.NULLABLE : ColumnStrategy.NOT_NULLABLE;
            }
            list.add(SqlDdlNodes.column(s.add(id).end(this), id, type.withNullable(nullable), value, strategy));
            list.addAll(keys);
        }
    |
        { list.add(id); }
    )
|
    [ <CONSTRAINT> { s.add(this); } constraint = SimpleIdentifier() ]
    (
        <CHECK> { s.add(this); } <LPAREN> condition = Expression(ExprContext.ACCEPT_SUB_QUERY) <RPAREN> {
            list.add(SqlDdlNodes.check(s.end(this), constraint, condition));
        }
    |
        <UNIQUE> { s.add(this); } columns = ParenthesizedSimpleIdentifierList() {
            list.add(SqlDdlNodes.unique(s.end(columns), constraint, columns));
        }
    |
        <PRIMARY> { s.add(this); } <KEY> columns = ParenthesizedSimpleIdentifierList() {
            list.add(SqlDdlNodes.primary(s.end(columns), constraint, columns));
        }
    |
        // the constraint's name is not kept: DuckDB names a foreign key by its columns
        <FOREIGN> { s.add(this); } <KEY> columns = ParenthesizedSimpleIdentifierList()
        TesseraReferences(s, columns, list)
    )
}

/**
 * {@code REFERENCES parent [(columns)]} and its {@code ON DELETE | ON UPDATE} actions, added to {@code list} as a
 * foreign key of {@code columns} (a CASCADE, SET NULL or SET DEFAULT kept for sql/ForeignKeys' refusal).
 */
void TesseraReferences(Span s, SqlNodeList columns, List<SqlNode> list) :
{
    final SqlIdentifier parent;
    SqlNodeList referenced = null;
    SqlParserPos cascade = null;
    SqlParserPos action;
}
{
    <REFERENCES> { s.add(this); } parent = CompoundIdentifier()
    [ referenced = ParenthesizedSimpleIdentifierList() ]
    (
        <ON> ( <DELETE> | <UPDATE> )
        (
            <CASCADE> { cascade = cascade != null ? cascade : getPos(); }
        |
            <RESTRICT>
        |
            <NO> <ACTION>
        |
            <SET> { action = getPos(); } ( <NULL> | <DEFAULT_> ) { cascade = cascade != null ? cascade : action; }
        )
    )*
    {
        list.add(new io.tessera.sql.ForeignKeyNode(s.end(this), columns, parent, referenced, cascade));
    }
}

/**
 * A column's {@code [CONSTRAINT name] CHECK (condition)}, added to {@code list} after the column as a table's CHECK
 * is (the condition may name the table's other columns, as in DuckDB).
 */
void TesseraColumnCheck(List<SqlNode> list) :
{
    SqlIdentifier name = null;
    final SqlNode condition;
    final Span s = Span.of();
}
{
    [ <CONSTRAINT> { s.add(this); } name = SimpleIdentifier() ]
    <CHECK> { s.add(this); } <LPAREN> condition = Expression(ExprContext.ACCEPT_SUB_QUERY) <RPAREN> {
        list.add(SqlDdlNodes.check(s.end(this), name, condition));
    }
}

/**
 * A generated column's {@code AS (e)} or {@code GENERATED ALWAYS AS (e)}, then {@code VIRTUAL} or {@code STORED}
 * ({@code stored[0]} says which; sql/GeneratedColumns refuses STORED as DuckDB does); a DEFAULT or a constraint
 * after it is an error, as in DuckDB.
 */
SqlNode TesseraGeneratedAs(boolean[] stored) :
{
    final SqlNode value;
}
{
    ( <AS> | <GENERATED> <ALWAYS> <AS> ) <LPAREN> value = Expression(ExprContext.ACCEPT_SUB_QUERY) <RPAREN>
    [ <VIRTUAL> | <STORED> { stored[0] = true; } ]
    [
        <DEFAULT_> {
            throw new ParseException("Not allowed to set default on a generated column at line "
                + getPos().getLineNum() + ", column " + getPos().getColumnNum());
        }
    |
        ( <NOT> | <NULL> | <PRIMARY> | <UNIQUE> | <CHECK> | <CONSTRAINT> ) {
            throw new ParseException("Constraints on generated columns are not supported yet at line "
                + getPos().getLineNum() + ", column " + getPos().getColumnNum());
        }
    ]
    { return value; }
}

/** The parenthesized columns and constraints of a CREATE TABLE. */
SqlNodeList TesseraTableElements() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
}
{
    <LPAREN> { s = span(); }
    TesseraTableElement(list)
    ( <COMMA> TesseraTableElement(list) )*
    <RPAREN> {
        return new SqlNodeList(list, s.end(this));
    }
}

/** {@code CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name [(columns)] [AS query]}, after CREATE [OR REPLACE]. */
SqlCreate SqlCreateTable(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    SqlNodeList columns = null;
    SqlNode query = null;
}
{
    <TABLE> ifNotExists = TesseraIfNotExists() id = CompoundIdentifier()
    [ columns = TesseraTableElements() ]
    [ <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) ]
    {
        return SqlDdlNodes.createTable(s.end(this), replace, ifNotExists, id, columns, query);
    }
}

/** {@code CREATE [OR REPLACE] VIEW name [(columns)] AS query}, after CREATE [OR REPLACE]. */
SqlCreate SqlCreateView(Span s, boolean replace) :
{
    final SqlIdentifier id;
    SqlNodeList columns = null;
    final SqlNode query;
}
{
    <VIEW> id = CompoundIdentifier()
    [ columns = ParenthesizedSimpleIdentifierList() ]
    <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) {
        return SqlDdlNodes.createView(s.end(this), replace, id, columns, query);
    }
}

/** {@code DROP TABLE [IF EXISTS] name}, after DROP. */
SqlDrop SqlDropTable(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
}
{
    <TABLE> ifExists = TesseraIfExists() id = CompoundIdentifier() {
        return SqlDdlNodes.dropTable(s.end(this), ifExists, id);
    }
}

/** {@code DROP VIEW [IF EXISTS] name}, after DROP. */
SqlDrop SqlDropView(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
}
{
    <VIEW> ifExists = TesseraIfExists() id = CompoundIdentifier() {
        return SqlDdlNodes.dropView(s.end(this), ifExists, id);
    }
}

/**
 * {@code ALTER TABLE [IF EXISTS] t} and one action: {@code ADD [COLUMN] [IF NOT EXISTS] c type [NOT NULL | NULL |
 * DEFAULT e]...}, {@code DROP [COLUMN] [IF EXISTS] c}, {@code RENAME [COLUMN] a TO b}, {@code RENAME TO t2},
 * {@code ALTER [COLUMN] c [SET DATA] TYPE type [USING e]}, {@code ALTER [COLUMN] c SET DEFAULT e | DROP DEFAULT |
 * SET NOT NULL | DROP NOT NULL}, {@code ADD [CONSTRAINT name] CHECK (e)} (refused, as DuckDB refuses it); RENAME is
 * a word, no keyword. sql/AlterTableNode holds it, exec.TableAlterations
 * carries it out.
 */
SqlNode TesseraAlterTable() :
{
    final Span s;
    final boolean ifExists;
    final SqlIdentifier table;
    io.tessera.sql.AlterTableNode.Action action;
    SqlIdentifier column = null;
    boolean ifColumn = false;
    SqlIdentifier newName = null;
    SqlDataTypeSpec type = null;
    SqlNode expression = null;
    boolean notNull = false;
    SqlParserPos constraint = null;
    final List<SqlNode> checks = new ArrayList<SqlNode>();
}
{
    <ALTER> { s = span(); } <TABLE> ifExists = TesseraIfExists() table = CompoundIdentifier()
    (
        LOOKAHEAD(2) <ADD> TesseraColumnCheck(checks) {
            // DuckDB adds no CHECK to a table that has rows: kept for the refusal, which names its position
            constraint = checks.get(0).getParserPosition();
            action = io.tessera.sql.AlterTableNode.Action.ADD_CHECK;
        }
    |
        <ADD> [ <COLUMN> ] ifColumn = TesseraIfNotExists() column = SimpleIdentifier() type = DataType()
        (
            <NOT> <NULL> { notNull = true; }
        |
            <NULL>
        |
            <DEFAULT_> expression = Expression(ExprContext.ACCEPT_SUB_QUERY)
        |
            <PRIMARY> { constraint = getPos(); } <KEY>
        |
            <UNIQUE> { constraint = getPos(); }
        |
            ( <AS> | <GENERATED> ) {
                throw new ParseException("Adding generated columns after table creation is not supported yet at line "
                    + getPos().getLineNum() + ", column " + getPos().getColumnNum());
            }
        )*
        { action = io.tessera.sql.AlterTableNode.Action.ADD_COLUMN; }
    |
        <DROP> [ <COLUMN> ] ifColumn = TesseraIfExists() column = SimpleIdentifier() {
            action = io.tessera.sql.AlterTableNode.Action.DROP_COLUMN;
        }
    |
        LOOKAHEAD({ TesseraRenameFollows() }) <IDENTIFIER>
        (
            <TO> newName = SimpleIdentifier() { action = io.tessera.sql.AlterTableNode.Action.RENAME_TABLE; }
        |
            [ <COLUMN> ] column = SimpleIdentifier() <TO> newName = SimpleIdentifier() {
                action = io.tessera.sql.AlterTableNode.Action.RENAME_COLUMN;
            }
        )
    |
        <ALTER> [ <COLUMN> ] column = SimpleIdentifier()
        (
            LOOKAHEAD(2) [ <SET> <DATA> ] <TYPE> type = DataType()
            [ <USING> expression = Expression(ExprContext.ACCEPT_SUB_QUERY) ]
            { action = io.tessera.sql.AlterTableNode.Action.SET_TYPE; }
        |
            <SET>
            (
                <DEFAULT_> expression = Expression(ExprContext.ACCEPT_SUB_QUERY) {
                    action = io.tessera.sql.AlterTableNode.Action.SET_DEFAULT;
                }
            |
                <NOT> <NULL> { action = io.tessera.sql.AlterTableNode.Action.SET_NOT_NULL; }
            )
        |
            <DROP>
            (
                <DEFAULT_> { action = io.tessera.sql.AlterTableNode.Action.DROP_DEFAULT; }
            |
                <NOT> <NULL> { action = io.tessera.sql.AlterTableNode.Action.DROP_NOT_NULL; }
            )
        )
    )
    {
        return new io.tessera.sql.AlterTableNode(s.end(this), table, ifExists, action, column, ifColumn, newName,
            type, expression, notNull, constraint);
    }
}

<#--
  DuckDB's shorthands, each a hook that pom.xml adds to Calcite's template (the build fails where the template no
  longer has the place): x::type; GROUP BY ALL and ORDER BY ALL; SELECT * EXCLUDE (a, b) REPLACE (e AS c) RENAME (d AS f). The validator expands
  them once the select list's columns are known (sql/AllColumns).
-->

/** {@code ::type} after an operand: a CAST, as PostgreSQL and DuckDB write it. */
void InfixCast(List<Object> list, ExprContext exprContext, Span s) :
{
    final SqlParserPos pos;
    SqlDataTypeSpec type;
}
{
    <INFIX_CAST> {
        checkNonQueryExpression(exprContext);
        pos = getPos();
    }
    (
        // INTERVAL alone, not the element of INTERVAL[] or INTERVAL ARRAY
        LOOKAHEAD({ getToken(1).kind == INTERVAL && getToken(2).kind != LBRACKET && getToken(2).kind != ARRAY })
        <INTERVAL> {
            // x::INTERVAL: DuckDB's one INTERVAL type, read from text (sql.IntervalSyntax)
            list.add(new SqlParserUtil.ToTreeListItem(io.tessera.sql.IntervalSyntax.INFIX_INTERVAL, pos));
        }
    |
        type = DataType() {
            list.add(new SqlParserUtil.ToTreeListItem(SqlLibraryOperators.INFIX_CAST, pos));
            list.add(type);
        }
    )
}

/**
 * {@code n!} after an operand: DuckDB's factorial, the call factorial(n) of the operand just before it (so that it
 * binds tighter than any operator: -3! is -(3!), 2 * 3! is 12). The lexer reads {@code !=} as one token first.
 */
void PostfixFactorial(List<Object> list, ExprContext exprContext, Span s) :
{
}
{
    <POSTFIX_FACTORIAL> {
        checkNonQueryExpression(exprContext);
        Object last = list.isEmpty() ? null : list.get(list.size() - 1);
        if (!(last instanceof SqlNode) || last instanceof SqlDataTypeSpec) {
            throw new ParseException("unsupported: ! after a type name at line " + getPos().getLineNum()
                + ", column " + getPos().getColumnNum() + " (write factorial(...) around the value)");
        }
        SqlNode operand = (SqlNode) last;
        list.set(list.size() - 1, createCall(new SqlIdentifier("FACTORIAL", operand.getParserPosition()),
            operand.getParserPosition().plus(getPos()), SqlFunctionCategory.USER_DEFINED_FUNCTION, null,
            new SqlNode[] {operand}));
    }
}

/**
 * {@code a // b}: DuckDB's integer division (sql.IntegerDivision), an operator of the precedence of * and /, left
 * associative. The lexer reads {@code //} as one token, no longer as the start of a comment.
 */
void IntegerDivide(List<Object> list, ExprContext exprContext, Span s) :
{
    final SqlParserPos pos;
    final SqlNode e;
}
{
    <INTEGER_DIVIDE> {
        checkNonQueryExpression(exprContext);
        pos = getPos();
    }
    e = Expression3(ExprContext.ACCEPT_SUB_QUERY) {
        list.add(new SqlParserUtil.ToTreeListItem(io.tessera.sql.IntegerDivision.OPERATOR, pos));
        list.add(e);
    }
}

/**
 * DuckDB's pattern operators {@code ~~}, {@code !~~}, {@code ~~*}, {@code !~~*}, {@code ~~~} and {@code ^@}
 * (sql.PatternOperators), left associative, of a precedence between + and LIKE's.
 */
void PatternOperator(List<Object> list, ExprContext exprContext, Span s) :
{
    final SqlOperator op;
    final SqlParserPos pos;
    final SqlNode e;
}
{
    (
        <LIKE_OP> { op = io.tessera.sql.PatternOperators.LIKE; }
    |
        <NOT_LIKE_OP> { op = io.tessera.sql.PatternOperators.NOT_LIKE; }
    |
        <ILIKE_OP> { op = io.tessera.sql.PatternOperators.ILIKE; }
    |
        <NOT_ILIKE_OP> { op = io.tessera.sql.PatternOperators.NOT_ILIKE; }
    |
        <GLOB_OP> { op = io.tessera.sql.PatternOperators.GLOB; }
    |
        <STARTS_WITH_OP> { op = io.tessera.sql.PatternOperators.STARTS_WITH; }
    )
    {
        checkNonQueryExpression(exprContext);
        pos = getPos();
    }
    e = Expression3(ExprContext.ACCEPT_SUB_QUERY) {
        list.add(new SqlParserUtil.ToTreeListItem(op, pos));
        list.add(e);
    }
}

/**
 * DuckDB's JSON operators {@code j -> path} and {@code j ->> path} (sql.JsonArrows), left associative, of the
 * precedence of the pattern operators. Among a call's arguments {@code name -> body} is read as a lambda first, as
 * Calcite reads it; sql.JsonArrows makes it the JSON operator where the function takes no lambda.
 */
void JsonArrow(List<Object> list, ExprContext exprContext, Span s) :
{
    final SqlOperator op;
    final SqlParserPos pos;
    final SqlNode e;
}
{
    (
        <LAMBDA> { op = io.tessera.sql.JsonArrows.EXTRACT; }
    |
        <JSON_TEXT_ARROW> { op = io.tessera.sql.JsonArrows.EXTRACT_TEXT; }
    )
    {
        checkNonQueryExpression(exprContext);
        pos = getPos();
    }
    e = Expression3(ExprContext.ACCEPT_SUB_QUERY) {
        list.add(new SqlParserUtil.ToTreeListItem(op, pos));
        list.add(e);
    }
}

/**
 * {@code a GLOB b} and {@code a NOT GLOB b}, of LIKE's precedence. GLOB is no reserved word: the expression's loop
 * looks two tokens ahead, so a GLOB followed by what cannot start an operand ({@code select a glob from t}) is an
 * alias.
 */
void GlobOperator(List<Object> list, ExprContext exprContext, Span s) :
{
    SqlOperator op = io.tessera.sql.PatternOperators.GLOB_KEYWORD;
    final SqlParserPos pos;
    final SqlNode e;
}
{
    (
        <NOT> <GLOB> { op = io.tessera.sql.PatternOperators.NOT_GLOB_KEYWORD; }
    |
        <GLOB>
    )
    {
        checkNonQueryExpression(exprContext);
        pos = getPos();
    }
    e = Expression3(ExprContext.ACCEPT_SUB_QUERY) {
        list.add(new SqlParserUtil.ToTreeListItem(op, pos));
        list.add(e);
    }
}

/**
 * {@code ** b} or {@code ^ b} after an operand: DuckDB's power (sql.PowerOperator), whose precedence the tree of the
 * list gives it; the right operand may have a sign ({@code 2 ** -1}).
 */
void Power(List<Object> list, ExprContext exprContext, Span s) :
{
    final SqlOperator op;
}
{
    ( <DOUBLE_STAR> { op = io.tessera.sql.PowerOperator.STARS; } | <CARET> { op = io.tessera.sql.PowerOperator.CARET; } ) {
        checkNonQueryExpression(exprContext);
        list.add(new SqlParserUtil.ToTreeListItem(op, getPos()));
    }
    AddExpression2b(list, ExprContext.ACCEPT_SUB_QUERY)
}

/**
 * {@code & b}, {@code | b}, {@code << b} or {@code >> b} after an operand: the bitwise operators of integers
 * (sql.BitwiseOperators), of one precedence between + and LIKE's, left associative, as PostgreSQL and DuckDB bind
 * them.
 */
void BitwiseOperator(List<Object> list, ExprContext exprContext, Span s) :
{
    final SqlOperator op;
    final SqlParserPos pos;
    final SqlNode e;
}
{
    (
        <BIT_AND_OP> { op = io.tessera.sql.BitwiseOperators.AND; }
    |
        <VERTICAL_BAR> { op = io.tessera.sql.BitwiseOperators.OR; }
    |
        <SHIFT_LEFT_OP> { op = io.tessera.sql.BitwiseOperators.SHIFT_LEFT; }
    |
        <SHIFT_RIGHT_OP> { op = io.tessera.sql.BitwiseOperators.SHIFT_RIGHT; }
    )
    {
        checkNonQueryExpression(exprContext);
        pos = getPos();
    }
    e = Expression3(ExprContext.ACCEPT_SUB_QUERY) {
        list.add(new SqlParserUtil.ToTreeListItem(op, pos));
        list.add(e);
    }
}

/**
 * INTERVAL as a type name (sql.IntervalTypeName), one of the grammar's data types: a column's type, a list's
 * element ({@code INTERVAL[]}), a struct's field. After CAST ... AS and :: an INTERVAL alone (not followed by
 * {@code []} or ARRAY) is read before it, as text read as an interval.
 */
SqlTypeNameSpec TesseraIntervalTypeName() :
{
}
{
    <INTERVAL> { return new io.tessera.sql.IntervalTypeName(getPos()); }
}

/**
 * Whether the next token is an ALL that ends a GROUP BY clause by itself (GROUP BY ALL), rather than the quantifier
 * of a list of grouping elements (GROUP BY ALL a, b).
 */
JAVACODE boolean TesseraGroupByAllAlone() {
    if (getToken(1).kind != ALL) {
        return false;
    }
    switch (getToken(2).kind) {
    case EOF: case RPAREN: case HAVING: case WINDOW: case QUALIFY: case ORDER: case LIMIT: case OFFSET: case FETCH:
    case UNION: case EXCEPT: case INTERSECT: case SET_MINUS:
        return true;
    default:
        return false;
    }
}

/** ALL as an ORDER BY item: every column of the result, left to right. */
SqlNode TesseraOrderByAll() :
{
}
{
    <ALL> { return AllColumns.ALL.createCall(getPos()); }
}

/**
 * DuckDB's modifiers after {@code *} or {@code t.*}, in its order: {@code EXCLUDE (a, b)}, {@code REPLACE (expr AS a,
 * ...)}, {@code RENAME (a AS b, ...)}; each list in parentheses, or one entry without them.
 */
SqlNode TesseraStarModifiers(SqlIdentifier star) :
{
    final Span s = Span.of(star);
    final List<SqlIdentifier> names = new ArrayList<SqlIdentifier>();
    final List<SqlNode> replacements = new ArrayList<SqlNode>();
    final List<SqlNode> renames = new ArrayList<SqlNode>();
}
{
    (
        TesseraStarExclude(names) [ <REPLACE> TesseraStarEntries(replacements, true) ]
        [ LOOKAHEAD({ TesseraRenameFollows() }) <IDENTIFIER> TesseraStarEntries(renames, false) ]
    |
        <REPLACE> TesseraStarEntries(replacements, true)
        [ LOOKAHEAD({ TesseraRenameFollows() }) <IDENTIFIER> TesseraStarEntries(renames, false) ]
    |
        LOOKAHEAD({ TesseraRenameFollows() }) <IDENTIFIER> TesseraStarEntries(renames, false)
    )
    {
        return new AllColumns.ModifiedStar(star, names, replacements, renames, s.end(this));
    }
}

/** Whether RENAME (a word, not a keyword) comes next. */
JAVACODE boolean TesseraRenameFollows() {
    return getToken(1).kind == IDENTIFIER && getToken(1).image.equalsIgnoreCase("RENAME");
}

/** {@code EXCLUDE (a, b)} or {@code EXCLUDE a}. */
void TesseraStarExclude(List<SqlIdentifier> names) :
{
    SqlIdentifier id;
}
{
    <EXCLUDE>
    (
        <LPAREN> id = SimpleIdentifier() { names.add(id); }
        ( <COMMA> id = SimpleIdentifier() { names.add(id); } )*
        <RPAREN>
    |
        id = SimpleIdentifier() { names.add(id); }
    )
}

/** After REPLACE or RENAME: {@code (expr AS a, ...)} or {@code (a AS b, ...)}, or one entry without parentheses. */
void TesseraStarEntries(List<SqlNode> entries, boolean replace) :
{
}
{
    (
        <LPAREN> TesseraStarEntry(entries, replace)
        ( <COMMA> TesseraStarEntry(entries, replace) )*
        <RPAREN>
    |
        TesseraStarEntry(entries, replace)
    )
}

/** One entry of REPLACE ({@code expr AS name}) or of RENAME ({@code name AS name}), as an AS call. */
void TesseraStarEntry(List<SqlNode> entries, boolean replace) :
{
    final SqlNode e;
    final SqlIdentifier name;
}
{
    e = Expression(ExprContext.ACCEPT_SUB_QUERY) {
        if (!replace && !(e instanceof SqlIdentifier && ((SqlIdentifier) e).isSimple())) {
            throw new ParseException("RENAME takes a column's name before AS at line "
                + e.getParserPosition().getLineNum() + ", column " + e.getParserPosition().getColumnNum());
        }
    }
    <AS> name = SimpleIdentifier() {
        entries.add(SqlStdOperatorTable.AS.createCall(Span.of(e).end(this), e, name));
    }
}

/**
 * {@code [a, b, c]}: DuckDB's list constructor, Calcite's {@code ARRAY[a, b, c]}; {@code []} the empty list. {@code
 * [x * 2 for x in l if x > 1]}: DuckDB's list comprehension (sql.ListComprehensions), with a second name the element's
 * position.
 */
SqlNode TesseraListValue() :
{
    final Span s;
    SqlNodeList args = SqlNodeList.EMPTY;
    final List<SqlIdentifier> names = new ArrayList<SqlIdentifier>();
    SqlIdentifier name;
    final SqlNode list;
    SqlNode condition = null;
}
{
    <LBRACKET> { s = span(); }
    [ args = ExpressionCommaList(s, ExprContext.ACCEPT_SUB_QUERY) ]
    [
        <FOR> name = SimpleIdentifier() { names.add(name); }
        ( <COMMA> name = SimpleIdentifier() { names.add(name); } )*
        <IN> list = Expression(ExprContext.ACCEPT_NON_QUERY)
        [ <IF> condition = Expression(ExprContext.ACCEPT_NON_QUERY) ]
        <RBRACKET> {
            return io.tessera.sql.ListComprehensions.of(s.end(this), args, names, list, condition);
        }
    ]
    <RBRACKET> {
        return SqlStdOperatorTable.ARRAY_VALUE_CONSTRUCTOR.createCall(s.end(this), args.getList());
    }
}

/**
 * DuckDB's {@code lambda x, i: body} among a call's arguments: the lambda {@code (x, i) -> body}
 * (sql.KeywordLambda), its position from the word lambda on.
 */
SqlNode TesseraKeywordLambda() :
{
    final Span s;
    final SqlNodeList names;
    SqlIdentifier name;
    final SqlNode body;
}
{
    <IDENTIFIER> { s = span(); names = new SqlNodeList(getPos()); }
    name = SimpleIdentifier() { names.add(name); }
    ( <COMMA> name = SimpleIdentifier() { names.add(name); } )*
    <COLON> body = Expression(ExprContext.ACCEPT_NON_QUERY) {
        return new io.tessera.sql.KeywordLambda(s.end(this), names, body);
    }
}

/**
 * {@code TIMESTAMPTZ 'text'}: DuckDB's literal of a TIMESTAMP WITH TIME ZONE, the same literal as
 * {@code TIMESTAMP WITH TIME ZONE 'text'} (sql.TemporalLiterals reads it). Only that name before a string: any other
 * name is no literal.
 */
SqlNode TesseraZonedLiteral() :
{
    final Span s;
    final String p;
}
{
    LOOKAHEAD({ getToken(1).kind == IDENTIFIER && getToken(1).image.equalsIgnoreCase("TIMESTAMPTZ")
        && getToken(2).kind == QUOTED_STRING })
    <IDENTIFIER> { s = span(); } p = SimpleStringLiteral() {
        return SqlLiteral.createUnknown("TIMESTAMP WITH TIME ZONE", p, s.end(this));
    }
}

/**
 * DuckDB's {@code STRUCT(a INTEGER, b VARCHAR)}: the fields of Calcite's ROW type (sql.ColumnTypes reads them), each
 * name as written (TesseraFieldName).
 */
SqlTypeNameSpec TesseraStructTypeName() :
{
    final List<SqlIdentifier> fieldNames = new ArrayList<SqlIdentifier>();
    final List<SqlDataTypeSpec> fieldTypes = new ArrayList<SqlDataTypeSpec>();
    final Span s;
}
{
    <IDENTIFIER> { s = span(); }
    <LPAREN> TesseraStructField(fieldNames, fieldTypes)
    ( <COMMA> TesseraStructField(fieldNames, fieldTypes) )*
    <RPAREN> {
        return new SqlRowTypeNameSpec(s.end(this), fieldNames, fieldTypes);
    }
}

/**
 * DuckDB's {@code MAP(VARCHAR, INTEGER)}: Calcite's MAP type of a key type (its keys never NULL) and a value type
 * (its values NULL or not).
 */
SqlTypeNameSpec TesseraMapTypeName() :
{
    final Span s;
    final SqlDataTypeSpec key;
    final SqlDataTypeSpec value;
}
{
    <MAP> { s = span(); }
    <LPAREN> key = DataType() <COMMA> value = DataType() <RPAREN> {
        return new SqlMapTypeNameSpec(key.withNullable(false, getPos()), value.withNullable(true, getPos()),
            s.end(this));
    }
}

/**
 * DuckDB's map constructors: {@code MAP {'a': 1, 'b': 2}} (a call of sql.MapOperators' MAP_PACK with each key before
 * its value; {@code MAP {}} the empty map) and {@code map(keys, values)} of two lists ({@code map()} the empty map).
 */
SqlNode TesseraMapValue() :
{
    final Span s;
    final List<SqlNode> args = new ArrayList<SqlNode>();
    SqlNode e;
}
{
    <MAP> { s = span(); }
    (
        <LBRACE>
        [
            e = Expression(ExprContext.ACCEPT_SUB_QUERY) { args.add(e); }
            <COLON> e = Expression(ExprContext.ACCEPT_SUB_QUERY) { args.add(e); }
            (
                <COMMA> e = Expression(ExprContext.ACCEPT_SUB_QUERY) { args.add(e); }
                <COLON> e = Expression(ExprContext.ACCEPT_SUB_QUERY) { args.add(e); }
            )*
        ]
        <RBRACE> {
            return MapOperators.MAP_PACK.createCall(s.end(this), args);
        }
    |
        <LPAREN>
        [
            e = Expression(ExprContext.ACCEPT_SUB_QUERY) { args.add(e); }
            ( <COMMA> e = Expression(ExprContext.ACCEPT_SUB_QUERY) { args.add(e); } )*
        ]
        <RPAREN> {
            return MapOperators.MAP_OF_LISTS.createCall(s.end(this), args);
        }
    )
}

/** One field of a STRUCT type: its name as written, its type, NULL or NOT NULL (NOT NULL where neither). */
void TesseraStructField(List<SqlIdentifier> fieldNames, List<SqlDataTypeSpec> fieldTypes) :
{
    final SqlIdentifier name;
    final SqlDataTypeSpec type;
    final boolean nullable;
}
{
    name = TesseraFieldName() type = DataType() nullable = NullableOptDefaultFalse() {
        fieldNames.add(name);
        fieldTypes.add(type.withNullable(nullable, getPos()));
    }
}

/**
 * A STRUCT field's name: DuckDB keeps the case of an unquoted one as written ({@code STRUCT(Ab INTEGER)} has field
 * {@code Ab}; the look-up by name ignores case), where an unquoted column or table name is lower-cased.
 */
SqlIdentifier TesseraFieldName() :
{
    final SqlIdentifier id;
}
{
    id = SimpleIdentifier() {
        return id.getParserPosition().isQuoted() ? id : new SqlIdentifier(getToken(0).image, id.getParserPosition());
    }
}

/**
 * {@code {'a': 1, b: 'x'}}: DuckDB's struct literal, a call of sql.StructOperators' STRUCT_PACK with each field's
 * name (a string) before its value.
 */
SqlNode TesseraStructValue() :
{
    Span s;
    final List<SqlNode> args = new ArrayList<SqlNode>();
    final SqlNode value;
}
{
    (
        <LBRACE> { s = span(); }
        TesseraStructEntry(args)
    |
        // {t : 1}, { ts: 2}: the lexer reads a brace and the letters of a JDBC escape before white space as the
        // escape's token; before a colon they are the first field's name, and only before a quoted string
        // (DateTimeLiteral) or a function (JdbcFunctionCall) an escape
        ( <LBRACE_D> | <LBRACE_T> | <LBRACE_TS> | <LBRACE_FN> ) {
            s = span();
            args.add(SqlLiteral.createCharString(token.image.substring(1).trim(), getPos()));
        }
        <COLON> value = Expression(ExprContext.ACCEPT_SUB_QUERY) { args.add(value); }
    )
    ( <COMMA> TesseraStructEntry(args) )*
    <RBRACE> {
        return StructOperators.pack(s.end(this), args);
    }
}

void TesseraStructEntry(List<SqlNode> args) :
{
    SqlNode name;
    final SqlIdentifier id;
    final SqlNode value;
}
{
    (
        LOOKAHEAD({ getToken(2).kind == COLON && getToken(1).image.matches("[A-Za-z_][A-Za-z0-9_$]*") })
        name = TesseraWordAsFieldName()
    |
        name = StringLiteral()
    |
        id = TesseraFieldName() { name = SqlLiteral.createCharString(id.getSimple(), id.getParserPosition()); }
    )
    <COLON> value = Expression(ExprContext.ACCEPT_SUB_QUERY) {
        args.add(name);
        args.add(value);
    }
}

/**
 * A bare word before a colon in a struct literal (a reserved one too: {@code {call: 5}}) as the field's name in the
 * case written, as DuckDB takes any word there.
 */
JAVACODE SqlNode TesseraWordAsFieldName() {
    final Token word = getNextToken();
    return SqlLiteral.createCharString(word.image,
            new SqlParserPos(word.beginLine, word.beginColumn, word.endLine, word.endColumn));
}

/**
 * {@code struct_pack(Ab := 1)}, {@code struct_insert(s, Ab := 1)} and {@code struct_update(s, Ab := 1)}: the call
 * Calcite's grammar makes of a function with named arguments (which sql.StructPacks reads), each name as written
 * (TesseraFieldName), as DuckDB keeps a field name's case.
 */
SqlNode TesseraStructPack() :
{
    final SqlIdentifier name;
    final Span s;
    final List<SqlNode> args = new ArrayList<SqlNode>();
}
{
    LOOKAHEAD({ getToken(1).kind == IDENTIFIER && (getToken(1).image.equalsIgnoreCase("STRUCT_PACK")
        || getToken(1).image.equalsIgnoreCase("STRUCT_INSERT") || getToken(1).image.equalsIgnoreCase("STRUCT_UPDATE"))
        && getToken(2).kind == LPAREN })
    <IDENTIFIER> { s = span(); name = new SqlIdentifier(token.image.toLowerCase(java.util.Locale.ROOT), s.pos()); }
    <LPAREN>
    [ TesseraStructPackArg(args) ( <COMMA> TesseraStructPackArg(args) )* ]
    <RPAREN> {
        return createCall(name, s.end(this), SqlFunctionCategory.USER_DEFINED_FUNCTION, null, args);
    }
}

/** One argument of struct_pack: {@code name := value}, or a value alone (which sql.StructPacks refuses). */
void TesseraStructPackArg(List<SqlNode> args) :
{
    SqlIdentifier name = null;
    final SqlNode e;
}
{
    [
        LOOKAHEAD(2) name = TesseraFieldName() ( <NAMED_ARGUMENT_ASSIGNMENT> | <COLON> <EQ> )
    ]
    e = Expression(ExprContext.ACCEPT_SUB_QUERY) {
        args.add(name == null ? e : SqlStdOperatorTable.ARGUMENT_ASSIGNMENT.createCall(Span.of(name, e).pos(), e,
            name));
    }
}

/**
 * DuckDB's current_schema(), current_catalog(), current_user(), session_user() and user(): a reserved word that
 * names a value of the session (a context variable without parentheses) called with empty parentheses, read as the
 * call of the function of that name (sql.SessionFunctions answers them).
 */
SqlNode TesseraSessionCall() :
{
    final Span s;
    final String name;
}
{
    ( <CURRENT_SCHEMA> | <CURRENT_CATALOG> | <CURRENT_USER> | <SESSION_USER> | <USER> )
    { name = getToken(0).image; s = span(); }
    <LPAREN> <RPAREN> {
        return createCall(new SqlIdentifier(name, s.pos()), s.end(this), SqlFunctionCategory.USER_DEFINED_FUNCTION,
            null, new ArrayList<SqlNode>());
    }
}

/**
 * DuckDB's range, a reserved word here (a window's RANGE), where an expression may start: a call of range(...), or
 * the name of the column that range(...) in FROM makes.
 */
SqlNode TesseraRange() :
{
    final Span s;
    final List<SqlNode> args = new ArrayList<SqlNode>();
    SqlNode e;
}
{
    <RANGE> { s = span(); }
    (
        <LPAREN>
        [
            e = Expression(ExprContext.ACCEPT_SUB_QUERY) { args.add(e); }
            ( <COMMA> e = Expression(ExprContext.ACCEPT_SUB_QUERY) { args.add(e); } )*
        ]
        <RPAREN> {
            return createCall(new SqlIdentifier("range", s.pos()), s.end(this),
                SqlFunctionCategory.USER_DEFINED_FUNCTION, null, args);
        }
    |
        { return new SqlIdentifier("range", s.pos()); }
    )
}

/**
 * Whether the parentheses that come next hold ORDER BY at their own level (not inside a nested call, list or
 * subquery): a call with its order inside, {@code list(x ORDER BY y)}. A query right after the parenthesis is not.
 */
JAVACODE boolean TesseraOrderInsideCall() {
    if (getToken(1).kind != LPAREN) {
        return false;
    }
    int depth = 0;
    for (int i = 1; ; i++) {
        Token t = getToken(i);
        switch (t.kind) {
        case EOF:
            return false;
        case LPAREN: case LBRACKET: case LBRACE: case LBRACE_D: case LBRACE_T: case LBRACE_TS: case LBRACE_FN:
            depth++;
            break;
        case RPAREN: case RBRACKET: case RBRACE:
            if (--depth == 0) {
                return false;
            }
            break;
        case SELECT: case VALUES: case WITH:
            if (depth == 1 && i == 2) {
                return false;
            }
            break;
        case ORDER:
            if (depth == 1 && getToken(i + 1).kind == BY) {
                return true;
            }
            break;
        default:
            break;
        }
    }
}

/**
 * The parentheses of a call with ORDER BY inside: {@code ([DISTINCT | ALL] value, ... ORDER BY key, ...)}, as
 * FunctionParameterList gives them (the quantifier first), the ORDER BY list last.
 */
List<SqlNode> TesseraOrderedParameterList() :
{
    final List<SqlNode> list = new ArrayList<SqlNode>();
    final SqlLiteral qualifier;
    final SqlNodeList orderBy;
}
{
    <LPAREN>
    (
        qualifier = AllOrDistinct() { list.add(qualifier); }
    |
        { list.add(null); }
    )
    AddExpression(list, ExprContext.ACCEPT_SUB_QUERY)
    ( <COMMA> AddExpression(list, ExprContext.ACCEPT_SUB_QUERY) )*
    orderBy = OrderBy(true) { list.add(orderBy); }
    <RPAREN> {
        return list;
    }
}

/**
 * What {@code x[...]} holds: an index, or DuckDB's slice {@code begin:end[:step]} with begin and end optional
 * ({@code x[:2]}, {@code x[2:]}, {@code x[:3:2]}; {@code -} for a left-out end before a step, {@code x[2:-:2]}, as
 * DuckDB writes it; {@code x[::2]}, where the lexer reads {@code ::} as one token), read as a bounds call that
 * sql.SliceSyntax makes an array_slice.
 */
SqlNode TesseraSubscript() :
{
    final Span s;
    SqlNode begin = null;
    SqlNode end = null;
    SqlNode step = null;
}
{
    { s = span(); }
    (
        <INFIX_CAST> step = Expression(ExprContext.ACCEPT_SUB_QUERY) {
            return io.tessera.sql.SliceSyntax.bounds(s.end(this), null, null, step);
        }
    |
        [ begin = Expression(ExprContext.ACCEPT_SUB_QUERY) ]
        (
            <COLON>
            (
                LOOKAHEAD({ getToken(1).kind == MINUS && getToken(2).kind == COLON }) <MINUS>
            |
                [ end = Expression(ExprContext.ACCEPT_SUB_QUERY) ]
            )
            [ <COLON> step = Expression(ExprContext.ACCEPT_SUB_QUERY) ]
            { return io.tessera.sql.SliceSyntax.bounds(s.end(this), begin, end, step); }
        |
            {
                if (begin == null) {
                    throw SqlUtil.newContextException(getPos(), RESOURCE.illegalNonQueryExpression());
                }
                return begin;
            }
        )
    )
}

/**
 * What may follow FLOAT in a type name: DuckDB's FLOAT(p), a REAL for 1 to 24 bits of precision and a DOUBLE for 25
 * to 53, as DuckDB maps them; FLOAT alone a REAL, as DuckDB's FLOAT is (Calcite's FLOAT would compute a constant's
 * CAST at double precision).
 */
SqlTypeName TesseraFloatType() :
{
    final SqlParserPos at;
    final int bits;
}
{
    { at = getPos(); }
    (
        <LPAREN> bits = UnsignedIntLiteral() <RPAREN> {
            if (bits < 1 || bits > 53) {
                throw new ParseException("precision for type float must be " + (bits < 1 ? "at least 1 bit"
                    : "less than 54 bits") + " at line " + at.getLineNum() + ", column " + at.getColumnNum());
            }
            return bits <= 24 ? SqlTypeName.REAL : SqlTypeName.DOUBLE;
        }
    |
        { return SqlTypeName.REAL; }
    )
}

/**
 * DuckDB's sample of a table (after TABLESAMPLE) or of a query's FROM (after USING SAMPLE), read as a call of
 * sql.Samples' SAMPLE around the table: {@code 10}, {@code 10 ROWS}, {@code 10%}, {@code 10 PERCENT}, each perhaps
 * followed by {@code (method [, seed])}; or {@code method(10 [%|PERCENT|ROWS])}; then perhaps {@code REPEATABLE
 * (seed)}. The method is bernoulli, system or reservoir.
 */
SqlNode TesseraSample(SqlNode tableRef, Span s) :
{
    SqlLiteral method = null;
    final SqlNumericLiteral size;
    SqlLiteral unit = null;
    SqlNumericLiteral seed = null;
}
{
    (
        LOOKAHEAD(2) method = TesseraSampleMethod() <LPAREN> size = UnsignedNumericLiteral()
        [ unit = TesseraSampleUnit() ] <RPAREN>
    |
        size = UnsignedNumericLiteral() [ unit = TesseraSampleUnit() ]
        [
            <LPAREN> method = TesseraSampleMethod() [ <COMMA> seed = UnsignedNumericLiteral() ] <RPAREN>
        ]
    )
    [ <REPEATABLE> <LPAREN> seed = UnsignedNumericLiteral() <RPAREN> ]
    {
        return io.tessera.sql.Samples.SAMPLE.createCall(s.end(this), tableRef,
            method == null ? SqlLiteral.createNull(getPos()) : method, size,
            unit == null ? SqlLiteral.createNull(getPos()) : unit,
            seed == null ? SqlLiteral.createNull(getPos()) : seed);
    }
}

/** A sample's method: bernoulli, system or reservoir, as a string in lower case. */
SqlLiteral TesseraSampleMethod() :
{
}
{
    <BERNOULLI> { return SqlLiteral.createCharString("bernoulli", getPos()); }
|
    <SYSTEM> { return SqlLiteral.createCharString("system", getPos()); }
|
    <IDENTIFIER> {
        if (!token.image.equalsIgnoreCase("RESERVOIR")) {
            throw new ParseException("unknown sample method " + token.image + " at line " + getPos().getLineNum()
                + ", column " + getPos().getColumnNum() + " (bernoulli, system or reservoir)");
        }
        return SqlLiteral.createCharString("reservoir", getPos());
    }
}

/** A sample size's unit: % or PERCENT ("percent"), ROWS ("rows"). */
SqlLiteral TesseraSampleUnit() :
{
}
{
    ( <PERCENT_REMAINDER> | <PERCENT> ) { return SqlLiteral.createCharString("percent", getPos()); }
|
    <ROWS> { return SqlLiteral.createCharString("rows", getPos()); }
}

/** {@code USING SAMPLE ...} after a SELECT's FROM and WHERE: the FROM sampled (TesseraSample). */
SqlNode TesseraUsingSample(SqlNode from) :
{
    final Span s;
    final SqlNode sampled;
}
{
    <USING> { s = span(); } <IDENTIFIER> sampled = TesseraSample(from, s) {
        return sampled;
    }
}

/**
 * DuckDB's UNPIVOT statement, {@code UNPIVOT t ON a, b [INTO NAME k VALUE v] [ORDER BY ...]}: the query {@code
 * SELECT * FROM t UNPIVOT (v FOR k IN (a, b))} (the names name and value where INTO leaves them out), as DuckDB
 * reads it. The table may be a name or a parenthesized query.
 */
SqlNode TesseraUnpivotStatement() :
{
    final Span s;
    final SqlNode table;
    final List<SqlNode> columns = new ArrayList<SqlNode>();
    SqlIdentifier id;
    SqlIdentifier name = null;
    SqlIdentifier value = null;
    SqlNodeList orderBy = null;
}
{
    <UNPIVOT> { s = span(); }
    table = TableRef()
    <ON> id = SimpleIdentifier() { columns.add(new SqlNodeList(ImmutableList.of(id), id.getParserPosition())); }
    (
        <COMMA> id = SimpleIdentifier() { columns.add(new SqlNodeList(ImmutableList.of(id), id.getParserPosition())); }
    )*
    [
        <INTO> <NAME> name = SimpleIdentifier() <VALUE> value = SimpleIdentifier()
    ]
    [ orderBy = OrderBy(true) ]
    {
        SqlParserPos pos = s.end(this);
        SqlNode unpivot = new SqlUnpivot(pos, table, false,
            SqlNodeList.of(value != null ? value : new SqlIdentifier("value", pos)),
            SqlNodeList.of(name != null ? name : new SqlIdentifier("name", pos)),
            new SqlNodeList(columns, pos));
        SqlNode select = new SqlSelect(pos, SqlNodeList.EMPTY, SqlNodeList.of(SqlIdentifier.star(pos)), unpivot, null,
            null, null, null, null, null, null, null, null);
        return orderBy == null ? select : new SqlOrderBy(pos, select, orderBy, null, null);
    }
}

/**
 * The keys of {@code SELECT DISTINCT ON (k, ...)}, DuckDB's and PostgreSQL's, after DISTINCT: a {@link
 * io.tessera.sql.DistinctOn#KEYS} call put first in the select list, which sql.DistinctOn turns into the query's
 * QUALIFY.
 */
void TesseraDistinctOn(List<SqlNode> selectList) :
{
    final Span s;
    final List<SqlNode> keys = new ArrayList<SqlNode>();
    SqlNode e;
}
{
    <ON> { s = span(); } <LPAREN>
    e = Expression(ExprContext.ACCEPT_SUB_QUERY) { keys.add(e); }
    ( <COMMA> e = Expression(ExprContext.ACCEPT_SUB_QUERY) { keys.add(e); } )*
    <RPAREN>
    {
        selectList.add(io.tessera.sql.DistinctOn.KEYS.createCall(s.end(this), keys));
    }
}

/**
 * DuckDB's PIVOT statement, {@code PIVOT t [ON c [IN (v [AS name], ...)], ...] [USING agg(x) [AS a], ...] [GROUP
 * BY g, ...]}, a query wherever a query stands: {@code SELECT * FROM} a {@link io.tessera.sql.PivotStatement}, which
 * sql.PivotStatements makes the standard PIVOT once the values of the ON columns are read from the data. The table
 * may be a name, a file or a parenthesized query; ORDER BY and LIMIT follow as after any query.
 */
SqlNode TesseraPivotStatement() :
{
    final Span s;
    final SqlNode table;
    final List<SqlNode> on = new ArrayList<SqlNode>();
    final List<SqlNodeList> in = new ArrayList<SqlNodeList>();
    final List<SqlNode> using = new ArrayList<SqlNode>();
    final List<SqlIdentifier> groupBy = new ArrayList<SqlIdentifier>();
    SqlIdentifier id;
}
{
    <PIVOT> { s = span(); }
    table = TableRef()
    // a comma after an item continues the list (greedily, where the statement stands in a list of its own)
    [ <ON> TesseraPivotOn(on, in) ( LOOKAHEAD(1) <COMMA> TesseraPivotOn(on, in) )* ]
    [ <USING> TesseraPivotAgg(using) ( LOOKAHEAD(1) <COMMA> TesseraPivotAgg(using) )* ]
    [
        <GROUP> <BY> id = SimpleIdentifier() { groupBy.add(id); }
        ( LOOKAHEAD(1) <COMMA> id = SimpleIdentifier() { groupBy.add(id); } )*
    ]
    {
        return io.tessera.sql.PivotStatement.query(s.end(this), table, on, in, using, groupBy);
    }
}

/**
 * An ON item of the PIVOT statement: a column or an expression, with the values it pivots on where IN lists them
 * (a column's values may have names, {@code IN ('a' AS x, 'b')}); null in {@code in} where the data gives them.
 */
void TesseraPivotOn(List<SqlNode> on, List<SqlNodeList> in) :
{
    SqlNode e;
    final Span s;
    final List<SqlNode> values = new ArrayList<SqlNode>();
}
{
    (
        LOOKAHEAD(2) e = SimpleIdentifier() <IN> <LPAREN> { s = span(); }
        AddPivotValue(values) ( <COMMA> AddPivotValue(values) )*
        <RPAREN> {
            on.add(e);
            in.add(new SqlNodeList(values, s.end(this)));
        }
    |
        e = Expression(ExprContext.ACCEPT_NON_QUERY) {
            if (e.getKind() == SqlKind.IN && ((SqlCall) e).operand(1) instanceof SqlNodeList) {
                // an expression's IN list, read by the expression: its values, without names
                on.add(((SqlCall) e).operand(0));
                in.add((SqlNodeList) ((SqlCall) e).operand(1));
            } else {
                on.add(e);
                in.add(null);
            }
        }
    )
}

/** An aggregate of the PIVOT statement's USING, with its name where one follows. */
void TesseraPivotAgg(List<SqlNode> list) :
{
    final SqlNode e;
    final SqlIdentifier alias;
}
{
    e = NamedFunctionCall()
    (
        [ <AS> ] alias = SimpleIdentifier() {
            list.add(SqlStdOperatorTable.AS.createCall(Span.of(e).end(this), e, alias));
        }
    |
        { list.add(e); }
    )
}

/**
 * DuckDB's FROM-first query, {@code FROM t [SELECT items] [WHERE ...] [GROUP BY ...] ...}: the SELECT it stands for,
 * of every column ({@code *}) where no SELECT follows the FROM.
 */
SqlSelect TesseraFromFirst() :
{
    final List<SqlLiteral> keywords = new ArrayList<SqlLiteral>();
    SqlLiteral keyword;
    final List<SqlNode> selectList = new ArrayList<SqlNode>();
    SqlNode fromClause;
    final SqlNode where;
    final SqlNodeList groupBy;
    final SqlNode having;
    final SqlNodeList windowDecls;
    final SqlNode qualify;
    final Span s;
    final Span items;
}
{
    <FROM> { s = span(); } fromClause = FromClause()
    (
        <SELECT> { items = span(); }
        ( keyword = AllOrDistinct() { keywords.add(keyword); } )?
        AddSelectItem(selectList)
        ( <COMMA> AddSelectItem(selectList) )*
    |
        { items = span(); selectList.add(SqlIdentifier.star(getPos())); }
    )
    ( where = Where() | { where = null; } ) [ LOOKAHEAD({ getToken(1).kind == USING && getToken(2).image.equalsIgnoreCase("SAMPLE") }) fromClause = TesseraUsingSample(fromClause) ]
    ( groupBy = GroupBy() | { groupBy = null; } )
    ( having = Having() | { having = null; } )
    ( windowDecls = Window() | { windowDecls = null; } )
    ( qualify = Qualify() | { qualify = null; } )
    {
        return new SqlSelect(s.end(this), new SqlNodeList(keywords, items.pos()),
            new SqlNodeList(selectList, Span.of(selectList).pos()),
            fromClause, where, groupBy, having, windowDecls, qualify,
            null, null, null, new SqlNodeList(getPos()));
    }
}

/**
 * {@code INSERT [OR REPLACE | OR IGNORE] INTO table [BY NAME | BY POSITION] [(columns)] query [ON CONFLICT ...]}:
 * Calcite's SqlInsert with DuckDB's clauses beside it ({@link io.tessera.sql.InsertClauses}).
 */
SqlNode SqlInsert() :
{
    final Span s;
    final SqlIdentifier table;
    SqlNodeList columns = null;
    final SqlNode source;
    InsertClauses.Or or = InsertClauses.Or.NONE;
    boolean byName = false;
    InsertClauses.Conflict conflict = null;
    SqlNodeList returning = null;
    boolean defaultValues = false;
}
{
    <INSERT> { s = span(); }
    [
        <OR> (
            <REPLACE> { or = InsertClauses.Or.REPLACE; }
        |
            <IGNORE> { or = InsertClauses.Or.IGNORE; }
        )
    ]
    <INTO> table = CompoundTableIdentifier()
    [
        <BY> ( <NAME> { byName = true; } | <POSITION> )
    ]
    [ LOOKAHEAD(2) columns = ParenthesizedSimpleIdentifierList() ]
    (
        // DEFAULT VALUES: one row of DEFAULTs, the VALUES row (DEFAULT) that InsertClauses.completeDefaultValues
        // gives the table's first column once the table is known
        <DEFAULT_> { final SqlParserPos d = getPos(); } <VALUES> {
            defaultValues = true;
            source = SqlStdOperatorTable.VALUES.createCall(d.plus(getPos()),
                SqlStdOperatorTable.ROW.createCall(d, SqlStdOperatorTable.DEFAULT.createCall(d)));
        }
    |
        source = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    )
    [
        LOOKAHEAD({ getToken(1).kind == ON && getToken(2).image.equalsIgnoreCase("CONFLICT") })
        conflict = TesseraOnConflict()
    ]
    [ returning = TesseraReturning() ]
    {
        return new InsertClauses(s.end(this), table, source, columns, or, byName, conflict, returning, defaultValues);
    }
}

/**
 * {@code UPDATE table [[AS] alias] SET column = expression, ... [FROM from-list] [WHERE condition] [RETURNING
 * items]}: Calcite's SqlUpdate with PostgreSQL's and DuckDB's clauses beside it ({@link io.tessera.sql.UpdateClauses}).
 */
SqlNode SqlUpdate() :
{
    final Span s;
    final SqlIdentifier table;
    SqlIdentifier alias = null;
    final SqlNodeList columns;
    final SqlNodeList values;
    SqlIdentifier column;
    SqlNode from = null;
    SqlNode where = null;
    SqlNodeList returning = null;
}
{
    <UPDATE> {
        s = span();
        columns = new SqlNodeList(s.pos());
        values = new SqlNodeList(s.pos());
    }
    table = CompoundTableIdentifier()
    [ [ <AS> ] alias = SimpleIdentifier() ]
    <SET> column = CompoundIdentifier() { columns.add(column); }
    <EQ> AddExpression(values, ExprContext.ACCEPT_SUB_QUERY)
    (
        <COMMA> column = CompoundIdentifier() { columns.add(column); }
        <EQ> AddExpression(values, ExprContext.ACCEPT_SUB_QUERY)
    )*
    [ <FROM> from = FromClause() ]
    [ where = Where() ]
    [ returning = TesseraReturning() ]
    {
        final SqlParserPos pos = s.addAll(columns).addAll(values).addIf(where).pos();
        return new io.tessera.sql.UpdateClauses(pos, table, columns, values, where, alias, from, returning);
    }
}

/**
 * {@code DELETE FROM table [[AS] alias] [USING from-list] [WHERE condition] [RETURNING items]}: Calcite's SqlDelete
 * with PostgreSQL's and DuckDB's clauses beside it ({@link io.tessera.sql.DeleteClauses}). RETURNING is no alias.
 */
SqlNode SqlDelete() :
{
    final Span s;
    final SqlIdentifier table;
    SqlIdentifier alias = null;
    SqlNode using = null;
    SqlNode where = null;
    SqlNodeList returning = null;
}
{
    <DELETE> { s = span(); }
    <FROM> table = CompoundTableIdentifier()
    [ LOOKAHEAD([ <AS> ] SimpleIdentifier(), { getToken(1).kind != RETURNING }) [ <AS> ] alias = SimpleIdentifier() ]
    [ <USING> using = FromClause() ]
    [ where = Where() ]
    [ returning = TesseraReturning() ]
    {
        final SqlParserPos pos = s.add(table).addIf(alias).addIf(where).pos();
        return new io.tessera.sql.DeleteClauses(pos, table, where, alias, using, returning);
    }
}

/** {@code RETURNING item, ...} of INSERT, UPDATE and DELETE: items as a select list has them ({@code *} too). */
SqlNodeList TesseraReturning() :
{
    final Span s;
    final List<SqlNode> items = new ArrayList<SqlNode>();
}
{
    <RETURNING> { s = span(); }
    AddSelectItem(items) ( <COMMA> AddSelectItem(items) )*
    {
        return new SqlNodeList(items, s.end(this));
    }
}

/**
 * {@code ON CONFLICT [(columns)] DO NOTHING} or {@code ON CONFLICT [(columns)] DO UPDATE SET column = expression,
 * ... [WHERE condition]}; CONFLICT and NOTHING are words, no keywords.
 */
InsertClauses.Conflict TesseraOnConflict() :
{
    final Span s;
    SqlNodeList target = null;
    final List<SqlNode> columns = new ArrayList<SqlNode>();
    final List<SqlNode> values = new ArrayList<SqlNode>();
    SqlIdentifier column;
    SqlNode value;
    SqlNode condition = null;
}
{
    <ON> { s = span(); } <IDENTIFIER>
    [ target = ParenthesizedSimpleIdentifierList() ]
    <DO>
    (
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("NOTHING") }) <IDENTIFIER> {
            return new InsertClauses.Conflict(s.end(this), target, null, null, null);
        }
    |
        <UPDATE> <SET>
        column = SimpleIdentifier() <EQ> value = Expression(ExprContext.ACCEPT_SUB_QUERY) {
            columns.add(column);
            values.add(value);
        }
        (
            <COMMA> column = SimpleIdentifier() <EQ> value = Expression(ExprContext.ACCEPT_SUB_QUERY) {
                columns.add(column);
                values.add(value);
            }
        )*
        [ <WHERE> condition = Expression(ExprContext.ACCEPT_SUB_QUERY) ]
        {
            return new InsertClauses.Conflict(s.end(this), target, new SqlNodeList(columns, s.pos()),
                    new SqlNodeList(values, s.pos()), condition);
        }
    )
}

/**
 * DuckDB's joins that Calcite's grammar lacks, after the left table: {@code POSITIONAL JOIN} (POSITIONAL a word, no
 * keyword) and {@code ASOF [INNER | LEFT [OUTER] | RIGHT [OUTER] | FULL [OUTER]] JOIN}, read as the join type
 * {@link io.tessera.sql.DuckDbJoin} marks; sql.PositionalJoins and sql.AsofJoins rewrite them.
 */
SqlLiteral TesseraDuckDbJoinType() :
{
    final Span s;
    DuckDbJoin.Kind kind = DuckDbJoin.Kind.ASOF;
}
{
    <IDENTIFIER> { s = span(); } <JOIN> { return DuckDbJoin.of(DuckDbJoin.Kind.POSITIONAL, s.end(this)); }
|
    <ASOF> { s = span(); }
    [
        <INNER>
    |
        <LEFT> [ <OUTER> ] { kind = DuckDbJoin.Kind.ASOF_LEFT; }
    |
        <RIGHT> [ <OUTER> ] { kind = DuckDbJoin.Kind.ASOF_RIGHT; }
    |
        <FULL> [ <OUTER> ] { kind = DuckDbJoin.Kind.ASOF_FULL; }
    ]
    <JOIN> { return DuckDbJoin.of(kind, s.end(this)); }
}
