"""Reading a registry directory into the contract: the YAML reader, node locations, problems, the
translation of pydantic errors, the loader, and the loaded registry with its indexes.

- `indexes`: Lookups derived from a registry's releases, stacks, families and capability files.
- `loaded_registry`: The loaded registry: the validated models plus where each came from.
- `loader`: Load a registry directory into validated models, collecting every problem on the way.
- `node_locations`: Map a field path such as ('support', 2, 'status') to the line and column of its YAML node.
- `problems`: A problem found in the registry, with where it is and how to fix it, and its output formats.
- `pydantic_errors`: Turn pydantic validation errors into problems a contributor can act on.
- `file_caps`: How large a registry file may be (the loader's caps; the compile cache reads no more).
- `yaml_reader`: Safe YAML loading for registry files: fast on the valid path, located errors on the bad one.
- `tested_loader`: Loading registry/configurations/*.yaml (tested configurations) and registry/known-issues.yaml.
"""
