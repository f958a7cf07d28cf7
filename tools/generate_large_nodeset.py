#!/usr/bin/env python3
"""Writes a large NodeSet2 file for the import benchmarks (issue 29 item 6, docs/Benchmarks.md):

    generate_large_nodeset.py OUT.xml [VARIABLES] [PER_FOLDER]

VARIABLES Int32 variables (default 1,000,000) in folders of PER_FOLDER (default 1,000) below one
root folder under Objects. Numeric NodeIds in the model's namespace (folders from 1, variables from
10,000,000), BrowseNames of about 12 characters ("Var_0001234"), each variable with HasTypeDefinition
BaseDataVariableType and one Organizes reference from its folder (written on the folder's side as
the inverse on the variable, as generators commonly do), an Int32 Value, AccessLevel 3.
The file is streamed: memory stays small whatever the size.
"""
import sys

URI = "urn:ua-workbench:bench:large"


def main():
    out = sys.argv[1]
    variables = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    per_folder = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000
    folders = (variables + per_folder - 1) // per_folder
    with open(out, "w", encoding="utf-8", buffering=1 << 20) as f:
        w = f.write
        w('<?xml version="1.0" encoding="utf-8"?>\n')
        w('<UANodeSet xmlns="http://opcfoundation.org/UA/2011/03/UANodeSet.xsd">\n')
        w(f'  <NamespaceUris><Uri>{URI}</Uri></NamespaceUris>\n')
        w(f'  <Models><Model ModelUri="{URI}" Version="1.0.0" PublicationDate="2026-12-01T00:00:00Z">'
          '<RequiredModel ModelUri="http://opcfoundation.org/UA/" Version="1.05.00" PublicationDate="2021-01-01T00:00:00Z"/>'
          '</Model></Models>\n')
        w('  <Aliases><Alias Alias="Int32">i=6</Alias><Alias Alias="Organizes">i=35</Alias>'
          '<Alias Alias="HasTypeDefinition">i=40</Alias></Aliases>\n')
        w('  <UAObject NodeId="ns=1;i=1" BrowseName="1:Large"><DisplayName>Large</DisplayName><References>'
          '<Reference ReferenceType="Organizes" IsForward="false">i=85</Reference>'
          '<Reference ReferenceType="HasTypeDefinition">i=61</Reference></References></UAObject>\n')
        for folder in range(folders):
            fid = 2 + folder
            w(f'  <UAObject NodeId="ns=1;i={fid}" BrowseName="1:Folder_{folder:05d}"><DisplayName>Folder_{folder:05d}</DisplayName>'
              '<References><Reference ReferenceType="Organizes" IsForward="false">ns=1;i=1</Reference>'
              '<Reference ReferenceType="HasTypeDefinition">i=61</Reference></References></UAObject>\n')
            first = folder * per_folder
            for v in range(first, min(first + per_folder, variables)):
                vid = 10_000_000 + v
                w(f'  <UAVariable NodeId="ns=1;i={vid}" BrowseName="1:Var_{v:07d}" DataType="Int32" AccessLevel="3">'
                  f'<DisplayName>Var_{v:07d}</DisplayName><References>'
                  f'<Reference ReferenceType="Organizes" IsForward="false">ns=1;i={fid}</Reference>'
                  '<Reference ReferenceType="HasTypeDefinition">i=63</Reference></References>'
                  f'<Value><Int32>{v % 1000}</Int32></Value></UAVariable>\n')
        w('</UANodeSet>\n')


if __name__ == "__main__":
    main()
