// The programs a child python3 runs for a package's scripts/commands.py (seed 004's @skill_script
// commands), passed to `python3 -c` so that a package's code never runs inside the host. Each
// takes the module path and a random marker as arguments and answers one JSON line after the
// marker on stdout; anything printed before it is the command's own output.

/**
 * The first lines of every program: `python3 -c` puts the working directory — a repository, which
 * may plant a `json.py` — first on the import path; it goes before anything else is imported.
 * (`sys` is built in, never looked up there.)
 */
const PATH_GUARD = `import sys
if sys.path[0:1] == [""]:
    del sys.path[0]
`;

/**
 * Lists the commands without importing the module: the text on stdin is parsed (`ast`) and compiled
 * (the compile-time errors `py_compile` reports), and each function decorated with
 * `@skill_script(...)` becomes `{ function, name, category, description, parameters, line }`, its
 * parameters from the signature and type hints (without a hint, from the default's type; without
 * either, a string). A hint it cannot map is an error naming the
 * parameter, with its line and column.
 */
export const PYTHON_LIST_SOURCE = `${PATH_GUARD}
import ast, json, sys
path, marker = sys.argv[1], sys.argv[2]

def answer(value):
    sys.stdout.write("\\n" + marker + json.dumps(value) + "\\n")

class Unsupported(Exception):
    def __init__(self, node, message):
        super().__init__(message)
        self.node = node

SCALARS = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}

def name_of(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None

def members(node):
    return list(node.elts) if isinstance(node, ast.Tuple) else [node]

def is_none(node):
    return isinstance(node, ast.Constant) and node.value is None

def typed(node, where):
    """(definition, optional) for a type hint."""
    if node is None:
        return {"type": "string"}, False
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return typed(ast.parse(node.value, mode="eval").body, where)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return union([node.left, node.right], node, where)
    if name_of(node) in SCALARS:
        return {"type": SCALARS[name_of(node)]}, False
    if isinstance(node, ast.Subscript):
        outer = name_of(node.value)
        if outer == "Optional":
            definition, _ = typed(node.slice, where)
            return definition, True
        if outer == "Union":
            return union(members(node.slice), node, where)
        if outer == "Literal":
            values = [ast.literal_eval(item) for item in members(node.slice)]
            return {"type": "enum", "enum": values}, False
        if outer in ("list", "List") and name_of(node.slice) == "str":
            return {"type": "string_list"}, False
    raise Unsupported(node, where + " has a type that is not supported (str, int, float, bool, Optional, Literal, list[str])")

def union(parts, node, where):
    kept = [part for part in parts if not is_none(part)]
    if len(kept) != 1:
        raise Unsupported(node, where + " has a union type that is not supported (only X | None)")
    definition, _ = typed(kept[0], where)
    return definition, len(kept) < len(parts)

def decorator_of(function):
    for decorator in function.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        if name_of(call.func if call else decorator) == "skill_script":
            return call
    return False

def keyword(call, key, default=None):
    for item in (call.keywords if call else []):
        if item.arg == key:
            return ast.literal_eval(item.value)
    return default

def command_of(function, call):
    arguments = function.args
    positional = arguments.posonlyargs + arguments.args
    defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    parameters = {}
    for argument, default in list(zip(positional, defaults)) + list(zip(arguments.kwonlyargs, arguments.kw_defaults)):
        where = "the parameter \`" + argument.arg + "\` of \`" + function.name + "\`"
        try:
            definition, optional = typed(argument.annotation, where)
        except Unsupported as error:
            raise Unsupported(argument, str(error))
        if argument.annotation is None and default is not None and not is_none(default):
            # No hint: the default's type says it (bool before int: True is an int too).
            value = ast.literal_eval(default)
            kinds = [(bool, "boolean"), (int, "integer"), (float, "number"), (str, "string")]
            definition = {"type": next((name for kind, name in kinds if isinstance(value, kind)), "string")}
        if default is None:
            definition["required"] = not optional
        elif not is_none(default):
            definition["default"] = ast.literal_eval(default)
        parameters[argument.arg] = definition
    described = keyword(call, "description", "") or ""
    docstring = (ast.get_docstring(function) or "").strip()
    if described and docstring and docstring != described:
        described = described.rstrip() + ("" if described.rstrip()[-1:] in ".!?" else ".") + " " + docstring
    command = {"function": function.name, "name": keyword(call, "name", function.name),
               "description": described or docstring, "parameters": parameters, "line": function.lineno}
    category = keyword(call, "category")
    if category is not None:
        command["category"] = category
    return command

try:
    source = sys.stdin.read()
    try:
        tree = ast.parse(source, path)
        compile(tree, path, "exec")
    except SyntaxError as error:
        answer({"ok": False, "error": "scripts/commands.py does not compile: " + str(error.msg), "line": error.lineno or 1, "column": error.offset or 1})
        sys.exit(0)
    commands = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            call = decorator_of(node)
            if call is not False:
                commands.append(command_of(node, call))
    answer({"ok": True, "commands": commands})
except Unsupported as error:
    answer({"ok": False, "error": str(error), "line": error.node.lineno, "column": error.node.col_offset + 1})
except Exception as error:
    answer({"ok": False, "error": type(error).__name__ + ": " + str(error), "line": 1, "column": 1})
`;

/**
 * Runs one command: installs the `agent.skills.decorators` shim (a `skill_script` that leaves the
 * function as it is), executes the module's text — the held text from stdin's `source` when the
 * file changed since it was listed, else the file — as `scripts.commands` (or `commands` without a
 * `scripts/__init__.py`), with the package folder and `scripts/` on the import path, calls the
 * function with the arguments as keywords, awaits it when it is a coroutine, and answers the result.
 */
export const PYTHON_RUN_SOURCE = `${PATH_GUARD}
import asyncio, inspect, json, os, sys, traceback, types
path, function_name, marker = sys.argv[1], sys.argv[2], sys.argv[3]

def answer(value):
    sys.stdout.write("\\n" + marker + json.dumps(value, default=str) + "\\n")
    sys.stdout.flush()

def skill_script(*args, **kwargs):
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda function: function

agent = types.ModuleType("agent")
agent.skills = types.ModuleType("agent.skills")
agent.skills.decorators = types.ModuleType("agent.skills.decorators")
agent.skills.decorators.skill_script = skill_script
sys.modules.update({"agent": agent, "agent.skills": agent.skills, "agent.skills.decorators": agent.skills.decorators})

try:
    request = json.loads(sys.stdin.read() or "{}")
    scripts = os.path.dirname(path)
    sys.path[0:0] = [scripts, os.path.dirname(scripts)]
    source = request.get("source")
    if source is None:
        with open(path, encoding="utf-8") as file:
            source = file.read()
    in_package = os.path.exists(os.path.join(scripts, "__init__.py"))
    module = types.ModuleType("scripts.commands" if in_package else "commands")
    module.__file__ = path
    module.__package__ = "scripts" if in_package else ""
    sys.modules[module.__name__] = module
    exec(compile(source, path, "exec"), module.__dict__)
    function = getattr(module, function_name, None)
    if not callable(function):
        raise LookupError("scripts/commands.py has no function " + json.dumps(function_name) + " any more")
    result = function(**request.get("args", {}))
    if inspect.isawaitable(result):
        async def settle():
            return await result
        result = asyncio.run(settle())
    answer({"ok": True, "result": result})
except BaseException:
    answer({"ok": False, "error": traceback.format_exc()})
    sys.exit(1)
`;

/** `python3 -m py_compile <module>`, run through `-c` so that the working directory cannot plant a `py_compile.py`. */
export const PYTHON_COMPILE_SOURCE = `${PATH_GUARD}
import py_compile
sys.exit(py_compile.main())
`;
