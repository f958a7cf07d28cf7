// Structures field by field (ValueTextStructures.h): the generated structured types of namespace 0
// (their forEachField gives the field names of Opc.Ua.Types.bsd), and ValueText's "{Name: value, ...}". The list below is every type of
// ua/encoding/generated/DataTypes.cpp; tst_value_text checks that none is missing.
#include "ValueText.h"
#include "ValueTextDetail.h"
#include "ValueTextStructures.h"
#include "ua/encoding/DataTypeInfo.h"
#include "ua/encoding/generated/Types.h"

#include <QStringList>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace ua::app::detail {

namespace {

template <class T>
concept GeneratedStructure = requires {
    T::kTypeId;
    T::kName;
    T::kFieldCount;
};

template <class T>
struct IsArray : std::false_type {};
template <class T>
struct IsArray<Array<T>> : std::true_type {};

template <class T>
void visitField(const T& v, StructureVisitor& visitor) {
    if constexpr (GeneratedStructure<T>) {
        visitor.beginStructure(T::kName);
        forEachField(v, [&](const char* name, const auto& field) {
            visitor.field(name);
            visitField(field, visitor);
        });
        visitor.endStructure();
    } else if constexpr (std::is_enum_v<T>) {
        const char* name = enumName(v);  // the generated enumeration's names
        visitor.enumeration(int64_t(std::underlying_type_t<T>(v)), name && *name ? name : nullptr);
    } else if constexpr (IsArray<T>::value) {
        visitor.beginArray(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (!visitor.element(i)) break;
            visitField(v[i], visitor);
        }
        visitor.endArray();
    } else if constexpr (std::is_same_v<T, Variant>) {
        visitor.value(v);
    } else {
        visitor.value(Variant(v));  // a built-in type
    }
}

// "{Name: value, ...}", arrays "[a, b, ...]" cut after maxElements, built-in values as elements
// (text types quoted).
class TextVisitor final : public StructureVisitor {
public:
    explicit TextVisitor(int maxElements) : m_maxElements(maxElements) {}
    QString text;

    void beginStructure(const char*) override {
        text += QLatin1Char('{');
        m_firstField.push_back(true);
    }
    void field(const char* name) override {
        if (!m_firstField.back()) text += QStringLiteral(", ");
        m_firstField.back() = false;
        text += QLatin1String(name) + QStringLiteral(": ");
    }
    void endStructure() override {
        m_firstField.pop_back();
        text += QLatin1Char('}');
    }
    void beginArray(std::size_t) override { text += QLatin1Char('['); }
    bool element(std::size_t index) override {
        if (m_maxElements > 0 && index >= std::size_t(m_maxElements)) {
            text += QStringLiteral(", ...");
            return false;
        }
        if (index) text += QStringLiteral(", ");
        return true;
    }
    void endArray() override { text += QLatin1Char(']'); }
    void value(const Variant& v) override { text += formatElement(v, m_maxElements); }
    void enumeration(int64_t v, const char* name) override { text += name ? QLatin1String(name) : QString::number(v); }

private:
    int m_maxElements;
    std::vector<bool> m_firstField;
};

using BodyVisit = void (*)(const ExtensionObjectBody&, StructureVisitor&);

template <class T>
void visitBody(const ExtensionObjectBody& body, StructureVisitor& visitor) {
    visitField(static_cast<const ExtensionObjectHolder<T>&>(body).value, visitor);
}

#define UA_STRUCTURE(T) {T::kTypeId, &visitBody<T>},
const std::pair<uint32_t, BodyVisit> kVisits[] = {
    UA_STRUCTURE(DataTypeDefinition) UA_STRUCTURE(StructureDefinition) UA_STRUCTURE(EnumDefinition)
    UA_STRUCTURE(DataSetMetaDataType) UA_STRUCTURE(DataTypeDescription) UA_STRUCTURE(StructureDescription)
    UA_STRUCTURE(EnumDescription) UA_STRUCTURE(RolePermissionType) UA_STRUCTURE(Argument)
    UA_STRUCTURE(StatusResult) UA_STRUCTURE(UserTokenPolicy) UA_STRUCTURE(ApplicationDescription)
    UA_STRUCTURE(EndpointDescription) UA_STRUCTURE(UserIdentityToken) UA_STRUCTURE(AnonymousIdentityToken)
    UA_STRUCTURE(UserNameIdentityToken) UA_STRUCTURE(X509IdentityToken) UA_STRUCTURE(EndpointConfiguration)
    UA_STRUCTURE(BuildInfo) UA_STRUCTURE(SignedSoftwareCertificate) UA_STRUCTURE(NodeAttributes)
    UA_STRUCTURE(ObjectAttributes) UA_STRUCTURE(VariableAttributes) UA_STRUCTURE(MethodAttributes)
    UA_STRUCTURE(ObjectTypeAttributes) UA_STRUCTURE(VariableTypeAttributes) UA_STRUCTURE(ReferenceTypeAttributes)
    UA_STRUCTURE(DataTypeAttributes) UA_STRUCTURE(ViewAttributes) UA_STRUCTURE(AddNodesItem)
    UA_STRUCTURE(AddReferencesItem) UA_STRUCTURE(DeleteNodesItem) UA_STRUCTURE(DeleteReferencesItem)
    UA_STRUCTURE(RequestHeader) UA_STRUCTURE(ResponseHeader) UA_STRUCTURE(ServiceFault)
    UA_STRUCTURE(FindServersRequest) UA_STRUCTURE(FindServersResponse) UA_STRUCTURE(GetEndpointsRequest)
    UA_STRUCTURE(GetEndpointsResponse) UA_STRUCTURE(RegisteredServer) UA_STRUCTURE(RegisterServerRequest)
    UA_STRUCTURE(RegisterServerResponse) UA_STRUCTURE(ChannelSecurityToken) UA_STRUCTURE(OpenSecureChannelRequest)
    UA_STRUCTURE(OpenSecureChannelResponse) UA_STRUCTURE(CloseSecureChannelRequest) UA_STRUCTURE(CloseSecureChannelResponse)
    UA_STRUCTURE(SignatureData) UA_STRUCTURE(CreateSessionRequest) UA_STRUCTURE(CreateSessionResponse)
    UA_STRUCTURE(ActivateSessionRequest) UA_STRUCTURE(ActivateSessionResponse) UA_STRUCTURE(CloseSessionRequest)
    UA_STRUCTURE(CloseSessionResponse) UA_STRUCTURE(CancelRequest) UA_STRUCTURE(CancelResponse)
    UA_STRUCTURE(AddNodesResult) UA_STRUCTURE(AddNodesRequest) UA_STRUCTURE(AddNodesResponse)
    UA_STRUCTURE(AddReferencesRequest) UA_STRUCTURE(AddReferencesResponse) UA_STRUCTURE(DeleteNodesRequest)
    UA_STRUCTURE(DeleteNodesResponse) UA_STRUCTURE(DeleteReferencesRequest) UA_STRUCTURE(DeleteReferencesResponse)
    UA_STRUCTURE(ViewDescription) UA_STRUCTURE(BrowseDescription) UA_STRUCTURE(ReferenceDescription)
    UA_STRUCTURE(BrowseResult) UA_STRUCTURE(BrowseRequest) UA_STRUCTURE(BrowseResponse)
    UA_STRUCTURE(BrowseNextRequest) UA_STRUCTURE(BrowseNextResponse) UA_STRUCTURE(RelativePathElement)
    UA_STRUCTURE(RelativePath) UA_STRUCTURE(BrowsePath) UA_STRUCTURE(BrowsePathTarget)
    UA_STRUCTURE(BrowsePathResult) UA_STRUCTURE(TranslateBrowsePathsToNodeIdsRequest) UA_STRUCTURE(TranslateBrowsePathsToNodeIdsResponse)
    UA_STRUCTURE(RegisterNodesRequest) UA_STRUCTURE(RegisterNodesResponse) UA_STRUCTURE(UnregisterNodesRequest)
    UA_STRUCTURE(UnregisterNodesResponse) UA_STRUCTURE(QueryDataDescription) UA_STRUCTURE(NodeTypeDescription)
    UA_STRUCTURE(QueryDataSet) UA_STRUCTURE(NodeReference) UA_STRUCTURE(ContentFilterElement)
    UA_STRUCTURE(ContentFilter) UA_STRUCTURE(FilterOperand) UA_STRUCTURE(ElementOperand)
    UA_STRUCTURE(LiteralOperand) UA_STRUCTURE(AttributeOperand) UA_STRUCTURE(SimpleAttributeOperand)
    UA_STRUCTURE(ContentFilterElementResult) UA_STRUCTURE(ContentFilterResult) UA_STRUCTURE(ParsingResult)
    UA_STRUCTURE(QueryFirstRequest) UA_STRUCTURE(QueryFirstResponse) UA_STRUCTURE(QueryNextRequest)
    UA_STRUCTURE(QueryNextResponse) UA_STRUCTURE(ReadValueId) UA_STRUCTURE(ReadRequest)
    UA_STRUCTURE(ReadResponse) UA_STRUCTURE(HistoryReadValueId) UA_STRUCTURE(HistoryReadResult)
    UA_STRUCTURE(HistoryReadDetails) UA_STRUCTURE(ReadEventDetails) UA_STRUCTURE(ReadRawModifiedDetails)
    UA_STRUCTURE(ReadProcessedDetails) UA_STRUCTURE(ReadAtTimeDetails) UA_STRUCTURE(HistoryData)
    UA_STRUCTURE(HistoryEvent) UA_STRUCTURE(HistoryReadRequest) UA_STRUCTURE(HistoryReadResponse)
    UA_STRUCTURE(WriteValue) UA_STRUCTURE(WriteRequest) UA_STRUCTURE(WriteResponse)
    UA_STRUCTURE(HistoryUpdateDetails) UA_STRUCTURE(UpdateDataDetails) UA_STRUCTURE(UpdateEventDetails)
    UA_STRUCTURE(DeleteRawModifiedDetails) UA_STRUCTURE(DeleteAtTimeDetails) UA_STRUCTURE(DeleteEventDetails)
    UA_STRUCTURE(HistoryUpdateResult) UA_STRUCTURE(HistoryUpdateRequest) UA_STRUCTURE(HistoryUpdateResponse)
    UA_STRUCTURE(CallMethodRequest) UA_STRUCTURE(CallMethodResult) UA_STRUCTURE(CallRequest)
    UA_STRUCTURE(CallResponse) UA_STRUCTURE(MonitoringFilter) UA_STRUCTURE(DataChangeFilter)
    UA_STRUCTURE(EventFilter) UA_STRUCTURE(AggregateFilter) UA_STRUCTURE(MonitoringFilterResult)
    UA_STRUCTURE(EventFilterResult) UA_STRUCTURE(AggregateFilterResult) UA_STRUCTURE(MonitoringParameters)
    UA_STRUCTURE(MonitoredItemCreateRequest) UA_STRUCTURE(MonitoredItemCreateResult) UA_STRUCTURE(CreateMonitoredItemsRequest)
    UA_STRUCTURE(CreateMonitoredItemsResponse) UA_STRUCTURE(MonitoredItemModifyRequest) UA_STRUCTURE(MonitoredItemModifyResult)
    UA_STRUCTURE(ModifyMonitoredItemsRequest) UA_STRUCTURE(ModifyMonitoredItemsResponse) UA_STRUCTURE(SetMonitoringModeRequest)
    UA_STRUCTURE(SetMonitoringModeResponse) UA_STRUCTURE(SetTriggeringRequest) UA_STRUCTURE(SetTriggeringResponse)
    UA_STRUCTURE(DeleteMonitoredItemsRequest) UA_STRUCTURE(DeleteMonitoredItemsResponse) UA_STRUCTURE(CreateSubscriptionRequest)
    UA_STRUCTURE(CreateSubscriptionResponse) UA_STRUCTURE(ModifySubscriptionRequest) UA_STRUCTURE(ModifySubscriptionResponse)
    UA_STRUCTURE(SetPublishingModeRequest) UA_STRUCTURE(SetPublishingModeResponse) UA_STRUCTURE(NotificationMessage)
    UA_STRUCTURE(MonitoredItemNotification) UA_STRUCTURE(DataChangeNotification) UA_STRUCTURE(StatusChangeNotification)
    UA_STRUCTURE(SubscriptionAcknowledgement) UA_STRUCTURE(PublishRequest) UA_STRUCTURE(PublishResponse)
    UA_STRUCTURE(RepublishRequest) UA_STRUCTURE(RepublishResponse) UA_STRUCTURE(TransferResult)
    UA_STRUCTURE(TransferSubscriptionsRequest) UA_STRUCTURE(TransferSubscriptionsResponse) UA_STRUCTURE(DeleteSubscriptionsRequest)
    UA_STRUCTURE(DeleteSubscriptionsResponse) UA_STRUCTURE(RedundantServerDataType) UA_STRUCTURE(SamplingIntervalDiagnosticsDataType)
    UA_STRUCTURE(ServerDiagnosticsSummaryDataType) UA_STRUCTURE(ServerStatusDataType) UA_STRUCTURE(SessionDiagnosticsDataType)
    UA_STRUCTURE(SessionSecurityDiagnosticsDataType) UA_STRUCTURE(ServiceCounterDataType) UA_STRUCTURE(SubscriptionDiagnosticsDataType)
    UA_STRUCTURE(ModelChangeStructureDataType) UA_STRUCTURE(Range) UA_STRUCTURE(EUInformation)
    UA_STRUCTURE(Annotation) UA_STRUCTURE(ProgramDiagnosticDataType) UA_STRUCTURE(SemanticChangeStructureDataType)
    UA_STRUCTURE(EventNotificationList) UA_STRUCTURE(EventFieldList) UA_STRUCTURE(HistoryEventFieldList)
    UA_STRUCTURE(IssuedIdentityToken) UA_STRUCTURE(NotificationData) UA_STRUCTURE(AggregateConfiguration)
    UA_STRUCTURE(EnumValueType) UA_STRUCTURE(TimeZoneDataType) UA_STRUCTURE(ModificationInfo)
    UA_STRUCTURE(HistoryModifiedData) UA_STRUCTURE(UpdateStructureDataDetails) UA_STRUCTURE(EndpointUrlListDataType)
    UA_STRUCTURE(NetworkGroupDataType) UA_STRUCTURE(AxisInformation) UA_STRUCTURE(XVType)
    UA_STRUCTURE(ComplexNumberType) UA_STRUCTURE(DoubleComplexNumberType) UA_STRUCTURE(ServerOnNetwork)
    UA_STRUCTURE(FindServersOnNetworkRequest) UA_STRUCTURE(FindServersOnNetworkResponse) UA_STRUCTURE(RegisterServer2Request)
    UA_STRUCTURE(RegisterServer2Response) UA_STRUCTURE(TrustListDataType) UA_STRUCTURE(OptionSet)
    UA_STRUCTURE(Union) UA_STRUCTURE(DiscoveryConfiguration) UA_STRUCTURE(MdnsDiscoveryConfiguration)
    UA_STRUCTURE(PublishedVariableDataType) UA_STRUCTURE(FieldMetaData) UA_STRUCTURE(StructureField)
    UA_STRUCTURE(EnumField) UA_STRUCTURE(KeyValuePair) UA_STRUCTURE(ConfigurationVersionDataType)
    UA_STRUCTURE(FieldTargetDataType) UA_STRUCTURE(SimpleTypeDescription) UA_STRUCTURE(UABinaryFileDataType)
    UA_STRUCTURE(BrokerConnectionTransportDataType) UA_STRUCTURE(EndpointType) UA_STRUCTURE(DataTypeSchemaHeader)
    UA_STRUCTURE(PublishedDataSetDataType) UA_STRUCTURE(PublishedDataSetSourceDataType) UA_STRUCTURE(PublishedDataItemsDataType)
    UA_STRUCTURE(PublishedEventsDataType) UA_STRUCTURE(DataSetWriterDataType) UA_STRUCTURE(DataSetWriterTransportDataType)
    UA_STRUCTURE(DataSetWriterMessageDataType) UA_STRUCTURE(PubSubGroupDataType) UA_STRUCTURE(WriterGroupTransportDataType)
    UA_STRUCTURE(WriterGroupMessageDataType) UA_STRUCTURE(PubSubConnectionDataType) UA_STRUCTURE(ConnectionTransportDataType)
    UA_STRUCTURE(ReaderGroupTransportDataType) UA_STRUCTURE(ReaderGroupMessageDataType) UA_STRUCTURE(DataSetReaderDataType)
    UA_STRUCTURE(DataSetReaderTransportDataType) UA_STRUCTURE(DataSetReaderMessageDataType) UA_STRUCTURE(SubscribedDataSetDataType)
    UA_STRUCTURE(TargetVariablesDataType) UA_STRUCTURE(SubscribedDataSetMirrorDataType) UA_STRUCTURE(UadpWriterGroupMessageDataType)
    UA_STRUCTURE(UadpDataSetWriterMessageDataType) UA_STRUCTURE(UadpDataSetReaderMessageDataType) UA_STRUCTURE(JsonWriterGroupMessageDataType)
    UA_STRUCTURE(JsonDataSetWriterMessageDataType) UA_STRUCTURE(JsonDataSetReaderMessageDataType) UA_STRUCTURE(BrokerWriterGroupTransportDataType)
    UA_STRUCTURE(BrokerDataSetWriterTransportDataType) UA_STRUCTURE(BrokerDataSetReaderTransportDataType) UA_STRUCTURE(IdentityMappingRuleType)
    UA_STRUCTURE(SessionlessInvokeRequestType) UA_STRUCTURE(DatagramConnectionTransportDataType) UA_STRUCTURE(AdditionalParametersType)
    UA_STRUCTURE(EphemeralKeyType) UA_STRUCTURE(GenericAttributeValue) UA_STRUCTURE(GenericAttributes)
    UA_STRUCTURE(RationalNumber) UA_STRUCTURE(Vector) UA_STRUCTURE(ThreeDVector)
    UA_STRUCTURE(CartesianCoordinates) UA_STRUCTURE(ThreeDCartesianCoordinates) UA_STRUCTURE(Orientation)
    UA_STRUCTURE(ThreeDOrientation) UA_STRUCTURE(Frame) UA_STRUCTURE(ThreeDFrame)
    UA_STRUCTURE(SessionlessInvokeResponseType) UA_STRUCTURE(WriterGroupDataType) UA_STRUCTURE(NetworkAddressDataType)
    UA_STRUCTURE(NetworkAddressUrlDataType) UA_STRUCTURE(ReaderGroupDataType) UA_STRUCTURE(PubSubConfigurationDataType)
    UA_STRUCTURE(DatagramWriterGroupTransportDataType) UA_STRUCTURE(AliasNameDataType) UA_STRUCTURE(ReadAnnotationDataDetails)
    UA_STRUCTURE(CurrencyUnitType) UA_STRUCTURE(StandaloneSubscribedDataSetRefDataType) UA_STRUCTURE(StandaloneSubscribedDataSetDataType)
    UA_STRUCTURE(SecurityGroupDataType) UA_STRUCTURE(PubSubConfiguration2DataType) UA_STRUCTURE(QosDataType)
    UA_STRUCTURE(TransmitQosDataType) UA_STRUCTURE(TransmitQosPriorityDataType) UA_STRUCTURE(ReceiveQosDataType)
    UA_STRUCTURE(ReceiveQosPriorityDataType) UA_STRUCTURE(DatagramConnectionTransport2DataType) UA_STRUCTURE(DatagramWriterGroupTransport2DataType)
    UA_STRUCTURE(DatagramDataSetReaderTransportDataType) UA_STRUCTURE(ProgramDiagnostic2DataType) UA_STRUCTURE(PortableQualifiedName)
    UA_STRUCTURE(PortableNodeId) UA_STRUCTURE(UnsignedRationalNumber) UA_STRUCTURE(UserManagementDataType)
    UA_STRUCTURE(PriorityMappingEntryType) UA_STRUCTURE(PublishedDataSetCustomSourceDataType) UA_STRUCTURE(PubSubKeyPushTargetDataType)
    UA_STRUCTURE(PubSubConfigurationRefDataType) UA_STRUCTURE(PubSubConfigurationValueDataType) UA_STRUCTURE(TransactionErrorType)
    UA_STRUCTURE(BitFieldDefinition) UA_STRUCTURE(AnnotationDataType) UA_STRUCTURE(LinearConversionDataType)
    UA_STRUCTURE(QuantityDimension) UA_STRUCTURE(ReferenceDescriptionDataType) UA_STRUCTURE(ReferenceListEntryDataType)
    UA_STRUCTURE(ReadEventDetails2) UA_STRUCTURE(HistoryModifiedEvent)
};
#undef UA_STRUCTURE

} // namespace

QString formatStructure(const ExtensionObjectBody& body, int maxElements) {
    TextVisitor text(maxElements);
    if (!visitStructure(body, text)) return QString();
    return text.text;
}

} // namespace ua::app::detail

namespace ua::app {

bool visitStructure(const ExtensionObjectBody& body, StructureVisitor& visitor) {
    static const std::unordered_map<uint32_t, detail::BodyVisit> visits(std::begin(detail::kVisits), std::end(detail::kVisits));
    const auto it = visits.find(body.typeId());
    if (it == visits.end()) return false;
    it->second(body, visitor);
    return true;
}

} // namespace ua::app
